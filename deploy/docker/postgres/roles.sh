#!/bin/sh
# compose's Postgres, first start only (/docker-entrypoint-initdb.d): one login
# role per service and the owner role the migrate command runs as. The owner
# owns the database and every schema; the migrate command then grants each
# service role its own schema and nothing else (standalone/src/schema-grants.ts).
# The superuser (POSTGRES_USER) is for this script and the health check only.
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
  -v db="$POSTGRES_DB" \
  -v owner_password="$POSTGRES_OWNER_PASSWORD" \
  -v gateway_password="$POSTGRES_GATEWAY_PASSWORD" \
  -v collections_password="$POSTGRES_COLLECTIONS_PASSWORD" \
  -v catalog_password="$POSTGRES_CATALOG_PASSWORD" <<'SQL'
CREATE ROLE skills_owner LOGIN PASSWORD :'owner_password';
CREATE ROLE skills_gateway LOGIN PASSWORD :'gateway_password';
CREATE ROLE skills_collections LOGIN PASSWORD :'collections_password';
CREATE ROLE skills_catalog LOGIN PASSWORD :'catalog_password';
-- the owner hands catalog.search_items to catalog-service, whose reindex rebuilds it
GRANT skills_catalog TO skills_owner;
ALTER DATABASE :"db" OWNER TO skills_owner;
REVOKE ALL ON DATABASE :"db" FROM PUBLIC;
GRANT CONNECT ON DATABASE :"db" TO skills_gateway, skills_collections, skills_catalog;
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
SQL
