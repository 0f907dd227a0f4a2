-- The README's capture demo (scripts/demo.sh), part 1: a small shop before the capture starts.
-- Its rows are the snapshot.
CREATE TYPE order_status AS ENUM ('new', 'paid', 'shipped');
CREATE TABLE customers (
    id bigint PRIMARY KEY,
    name text NOT NULL,
    email varchar(120),
    balance numeric(12, 2),
    joined timestamptz(6),
    tags text[]
);
CREATE TABLE orders (
    id bigint PRIMARY KEY,
    customer_id bigint REFERENCES customers (id),
    status order_status NOT NULL,
    total numeric(12, 2),
    placed date,
    note jsonb,
    receipt bytea
);
-- the whole old row in every UPDATE and DELETE (Canal, OMS and DRS need it; the default
-- replica identity sends only the key, and only when it changed)
ALTER TABLE customers REPLICA IDENTITY FULL;
ALTER TABLE orders REPLICA IDENTITY FULL;
INSERT INTO customers VALUES
    (1, 'Ada Lovelace', 'ada@example.com', 1234.50, '2026-11-30 09:15:00.123456+00', '{vip,early}'),
    (2, 'Émile Zola', NULL, 0.00, '2026-11-30 10:00:00+01', '{}');
INSERT INTO orders VALUES
    (100, 1, 'paid', 99.99, '2026-11-30', '{"gift": true, "msg": "happy \"birthday\""}', '\x00ff10');
