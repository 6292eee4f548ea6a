//! All SQL, behind typed functions (sqlx; SQLite by default, portable to PostgreSQL).
