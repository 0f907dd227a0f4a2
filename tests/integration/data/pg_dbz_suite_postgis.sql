-- postgis_create_tables.ddl and init_postgis.ddl of Debezium's suite: PostGIS in its own schema
CREATE SCHEMA postgis; CREATE EXTENSION postgis SCHEMA postgis;
CREATE TABLE public.postgis_table (pk SERIAL, p postgis.GEOMETRY(POINT,3187), ml postgis.GEOGRAPHY(MULTILINESTRING), PRIMARY KEY(pk));
CREATE TABLE public.postgis_array_table (pk SERIAL, ga postgis.GEOMETRY[], gann postgis.GEOMETRY[] NOT NULL, PRIMARY KEY(pk));
