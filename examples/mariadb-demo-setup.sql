-- The README's capture demo for MariaDB (scripts/demo.sh mariadb), part 1: a small shop
-- before the capture starts. Its rows are the snapshot.
CREATE DATABASE shop;
USE shop;
CREATE TABLE customers (
    id bigint PRIMARY KEY,
    name varchar(100) NOT NULL,
    email varchar(120),
    balance decimal(12, 2),
    joined datetime(6),
    tags set('vip', 'early')
);
CREATE TABLE orders (
    id bigint PRIMARY KEY,
    customer_id bigint,
    status enum('new', 'paid', 'shipped') NOT NULL,
    total decimal(12, 2),
    placed date,
    note json,
    receipt varbinary(16)
);
INSERT INTO customers VALUES
    (1, 'Ada Lovelace', 'ada@example.com', 1234.50, '2026-11-30 09:15:00.123456', 'vip,early'),
    (2, 'Émile Zola', NULL, 0.00, '2026-11-30 10:00:00', '');
INSERT INTO orders VALUES
    (100, 1, 'paid', 99.99, '2026-11-30', '{"gift": true, "msg": "happy \\"birthday\\""}', x'00ff10');
