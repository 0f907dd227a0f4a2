-- The MariaDB workload of bench/run_capture_mysql.sh: the standard 12-column table of the
-- capture benchmarks (bench/capture_pg/workload.sql in MariaDB's types), rows that are a
-- function of their id, and a procedure that makes a given number of row changes in
-- transactions of 1 to 1,000 rows with the same linear congruential sequence as PostgreSQL's.
-- Rows come from the SEQUENCE engine (seq_1_to_N is a virtual table; BETWEEN is a range read), made signed
-- (seq is unsigned: seq * 7919 % 2000001 - 1000000 would be out of range).

SET time_zone = '+00:00';
CREATE DATABASE bench;
USE bench;
CREATE TABLE orders (
    id       bigint PRIMARY KEY,
    c_int    int,
    c_big    bigint,
    c_num    decimal(12, 2),
    c_text   text,
    c_name   varchar(64),
    c_bool   bool,
    c_date   date,
    c_ts     datetime(6),
    c_tstz   timestamp(6) NULL,
    c_json   json,
    c_bytes  varbinary(16)
) ENGINE = InnoDB;
CREATE TABLE orders_snap LIKE orders;

DELIMITER //
-- bench_rows(tbl, lo, hi): rows lo..hi into tbl: negative and positive ints, 2-digit decimals,
-- text with quotes, a tab and non-ASCII letters, microsecond times, a small JSON object, 16
-- bytes of binary
CREATE PROCEDURE bench_rows(tbl varchar(64), lo bigint, hi bigint)
BEGIN
    SET @lo = lo, @hi = hi;
    SET @q = CONCAT('INSERT INTO ', tbl, ' SELECT g, g * 7919 % 2000001 - 1000000, g * 1000003,',
        ' (g * 7907 % 10000000000) / 100, CONCAT(''row "'', g, ''"\t'', REPEAT(''ü'', g % 7), MD5(g)),',
        ' CONCAT(''name-'', g), g % 2 = 0, DATE ''2020-01-01'' + INTERVAL (g % 3650) DAY,',
        ' TIMESTAMP ''2020-01-01 00:00:00'' + INTERVAL (g * 1000001) MICROSECOND,',
        ' TIMESTAMP ''2020-01-01 00:00:00'' + INTERVAL (g * 123457) MICROSECOND,',
        ' JSON_OBJECT(''id'', g, ''tag'', CONCAT(''x'', g % 100), ''ok'', JSON_EXTRACT(IF(g % 3 = 0, ''true'', ''false''), ''$'')),',
        ' UNHEX(MD5(g)) FROM (SELECT CAST(seq AS SIGNED) AS g FROM seq_1_to_1000000000 WHERE seq BETWEEN ? AND ?) r');
    PREPARE st FROM @q;
    EXECUTE st USING @lo, @hi;
    DEALLOCATE PREPARE st;
END//

-- bench_load(changes, base): as PostgreSQL's: `changes` row changes on orders, which holds ids
-- 1..base; each transaction half inserts of new ids, 40% updates of 4 columns of a run of live
-- rows, the rest deletes of the oldest live rows. Ends with a row of the counts, which the
-- benchmark checks every reader against.
CREATE PROCEDURE bench_load(changes bigint, base bigint)
BEGIN
    DECLARE s bigint DEFAULT 42;
    DECLARE done bigint DEFAULT 0;
    DECLARE lo bigint DEFAULT 1;
    DECLARE nxt bigint DEFAULT base + 1;
    DECLARE n, ins, upd, del int;
    DECLARE a bigint;
    DECLARE t_ins, t_upd, t_del, txns bigint DEFAULT 0;
    WHILE done < changes DO
        SET s = (s * 1103515245 + 12345) % 2147483648;
        SET n = LEAST(1 + (s DIV 256) % 1000, changes - done);
        SET ins = (n + 1) DIV 2, upd = n * 2 DIV 5;
        SET del = n - ins - upd;
        START TRANSACTION;
        CALL bench_rows('orders', nxt, nxt + ins - 1);
        SET nxt = nxt + ins;
        IF upd > 0 THEN
            SET s = (s * 1103515245 + 12345) % 2147483648;
            SET a = lo + del + (s DIV 256) % GREATEST(1, nxt - lo - del - upd);
            UPDATE orders SET c_int = c_int + 1, c_num = c_num + 0.01, c_text = CONCAT(c_text, '+'),
                              c_tstz = c_tstz + INTERVAL 1500000 MICROSECOND
                WHERE id BETWEEN a AND a + upd - 1;
        END IF;
        IF del > 0 THEN
            DELETE FROM orders WHERE id BETWEEN lo AND lo + del - 1;
            SET lo = lo + del;
        END IF;
        COMMIT;
        SET done = done + n, t_ins = t_ins + ins, t_upd = t_upd + upd, t_del = t_del + del, txns = txns + 1;
    END WHILE;
    SELECT CONCAT('expect inserts ', t_ins, ' updates ', t_upd, ' deletes ', t_del, ' transactions ', txns);
END//
DELIMITER ;
