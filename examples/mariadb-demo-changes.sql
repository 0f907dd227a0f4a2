-- The README's capture demo for MariaDB (scripts/demo.sh mariadb), part 2: changes after the
-- snapshot, each kind once: a transaction of several statements, an update, a delete, a
-- rolled-back transaction (which yields nothing) and an ALTER TABLE between two inserts.
USE shop;
BEGIN;
INSERT INTO customers VALUES (3, 'Grace Hopper', 'grace@example.com', 99999999.99, '2026-12-01 08:00:00.5', 'vip');
INSERT INTO orders VALUES (101, 3, 'new', 12345678.90, '2026-12-01', '{"emoji": "🚀"}', NULL);
UPDATE orders SET status = 'shipped', note = JSON_SET(note, '$.carrier', 'DHL') WHERE id = 100;
COMMIT;
UPDATE customers SET balance = balance - 99.99, email = 'ada@lovelace.example' WHERE id = 1;
DELETE FROM customers WHERE id = 2;
BEGIN;
DELETE FROM orders;
ROLLBACK;
ALTER TABLE orders ADD COLUMN coupon varchar(20);
INSERT INTO orders VALUES (102, 1, 'new', 5.00, '2026-12-02', NULL, NULL, 'WELCOME');
