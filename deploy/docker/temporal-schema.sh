#!/bin/sh
# Creates Temporal's two PostgreSQL databases and brings their schemas up to the server version of
# this image. The temporal-schema service of deploy/compose.yaml runs it before every server start,
# which also makes a server upgrade migrate the schema. Every step is idempotent: create-database
# accepts an existing database, setup-schema -v 0.0 only adds the version tables when missing, and
# update-schema applies only the versions not applied yet.
set -eu

# The tool reads the password from SQL_PASSWORD, which keeps it off the command line.
: "${SQL_PASSWORD:?SQL_PASSWORD must hold the password of the temporal database user}"

schemas=/etc/temporal/schema/postgresql/v12

sql_tool() {
  temporal-sql-tool --plugin postgres12 --ep postgres -p 5432 -u temporal "$@"
}

# setup_database <database> <schema folder under $schemas>
setup_database() {
  sql_tool --db "$1" create-database
  sql_tool --db "$1" setup-schema -v 0.0
  sql_tool --db "$1" update-schema -d "$schemas/$2/versioned"
}

setup_database temporal temporal
setup_database temporal_visibility visibility
