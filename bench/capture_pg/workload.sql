-- The PostgreSQL workload of bench/run_capture_pg.sh: the standard 12-column table of the
-- capture benchmarks, rows that are a function of their id (so every run writes the same
-- bytes), and a procedure that makes a given number of row changes in transactions of 1 to
-- 1,000 rows, deterministically (its own linear congruential sequence, not random()).

CREATE TABLE orders (
    id       bigint PRIMARY KEY,
    c_int    int,
    c_big    bigint,
    c_num    numeric(12, 2),
    c_text   text,
    c_name   varchar(64),
    c_bool   bool,
    c_date   date,
    c_ts     timestamp(6),
    c_tstz   timestamptz(6),
    c_json   jsonb,
    c_bytes  bytea
);
CREATE TABLE orders_snap (LIKE orders INCLUDING ALL);

-- rows lo..hi: negative and positive ints, 2-digit decimals, text with quotes, a tab and
-- non-ASCII letters, microsecond timestamps, a small jsonb object, 16 bytes of binary
CREATE FUNCTION bench_rows(lo bigint, hi bigint) RETURNS SETOF orders LANGUAGE sql AS $$
    SELECT g, (g * 7919 % 2000001 - 1000000)::int, g * 1000003, (g * 7907 % 10000000000) / 100.0,
           'row "' || g || E'"\t' || repeat('ü', (g % 7)::int) || md5(g::text), 'name-' || g,
           g % 2 = 0, date '2020-01-01' + (g % 3650)::int,
           timestamp '2020-01-01' + g * interval '1.000001 s',
           timestamptz '2020-01-01 00:00:00+00' + g * interval '0.123457 s',
           jsonb_build_object('id', g, 'tag', 'x' || g % 100, 'ok', g % 3 = 0),
           decode(md5(g::text), 'hex')
    FROM generate_series(lo, hi) g
$$;

-- bench_load(changes, base): `changes` row changes on orders, which holds ids 1..base. Each
-- transaction has 1 to 1,000 changes: half inserts of new ids, 40% updates of 4 columns of a
-- run of live rows, the rest deletes of the oldest live rows (so the live ids stay one
-- contiguous range and every statement changes exactly the rows it names). Ends with a
-- NOTICE of the counts, which the benchmark checks every reader against.
CREATE PROCEDURE bench_load(changes bigint, base bigint) LANGUAGE plpgsql AS $$
DECLARE
    s bigint := 42;
    done bigint := 0;
    lo bigint := 1;
    nxt bigint := base + 1;
    n int; ins int; upd int; del int;
    a bigint;
    t_ins bigint := 0; t_upd bigint := 0; t_del bigint := 0; txns bigint := 0;
BEGIN
    WHILE done < changes LOOP
        s := (s * 1103515245 + 12345) % 2147483648;
        n := least(1 + (s >> 8) % 1000, changes - done);
        ins := (n + 1) / 2;
        upd := n * 2 / 5;
        del := n - ins - upd;
        INSERT INTO orders SELECT * FROM bench_rows(nxt, nxt + ins - 1);
        nxt := nxt + ins;
        IF upd > 0 THEN
            s := (s * 1103515245 + 12345) % 2147483648;
            a := lo + del + (s >> 8) % greatest(1, nxt - lo - del - upd);
            UPDATE orders SET c_int = c_int + 1, c_num = c_num + 0.01, c_text = c_text || '+',
                              c_tstz = c_tstz + interval '1.5 s'
                WHERE id BETWEEN a AND a + upd - 1;
        END IF;
        IF del > 0 THEN
            DELETE FROM orders WHERE id BETWEEN lo AND lo + del - 1;
            lo := lo + del;
        END IF;
        COMMIT;
        done := done + n;
        t_ins := t_ins + ins; t_upd := t_upd + upd; t_del := t_del + del; txns := txns + 1;
    END LOOP;
    RAISE NOTICE 'expect inserts % updates % deletes % transactions %', t_ins, t_upd, t_del, txns;
END
$$;
