-- The statements behind mariadb-10.11.binlog: run by the mariadb client (--default-character-set=utf8mb4)
-- against a fresh MariaDB 10.11 (mariadbd --no-defaults --log-bin --binlog-format=ROW
-- --binlog-row-image=FULL --binlog-row-metadata=FULL --server-id=7), then FLUSH BINARY LOGS; the
-- file is that server's first binlog, byte for byte.
CREATE DATABASE shop;
USE shop;
CREATE TABLE t2 (id INT PRIMARY KEY, d DECIMAL(65,30), f FLOAT, b BIT(64), y YEAR, tm TIME(6), dt DATETIME(6),
  ts TIMESTAMP(6) NULL, c VARCHAR(20) CHARACTER SET latin1, e ENUM('a','b'), s SET('x','y'), j JSON, g GEOMETRY,
  bl BLOB, bn BINARY(4), em VARCHAR(10) CHARACTER SET utf8mb4);
SET time_zone = '+00:00';
INSERT INTO t2 VALUES (1, -12345678901234567890.123456789012345678901234567890, 3.14, b'1010', 2155,
  '-838:59:59.000000', '9999-12-31 23:59:59.999999', '2020-03-29 01:30:00.5', 'é', 'b', 'x,y', '{"k": "ü"}',
  ST_GeomFromText('POINT(1 2)'), x'00ff', x'61000000', '😀');
UPDATE t2 SET c = 'zz', f = NULL WHERE id = 1;
ALTER TABLE t2 ADD COLUMN extra INT DEFAULT 5;
BEGIN;
INSERT INTO t2 (id) VALUES (2);
DELETE FROM t2 WHERE id = 2;
COMMIT;
RENAME TABLE t2 TO t3;
-- from here no column names in the TABLE_MAP: the schema history names them
SET GLOBAL binlog_row_metadata = MINIMAL;
INSERT INTO t3 (id, c, e) VALUES (3, 'x', 'a');
-- partial images: the columns left out are unavailable
SET SESSION binlog_row_image = MINIMAL;
UPDATE t3 SET c = 'm' WHERE id = 3;
DELETE FROM t3;
FLUSH BINARY LOGS;
