/**
 * The databases the product works with, by status, as the product specification announces them.
 * Product names, the same in every language.
 */
export const DATABASES = {
  available: ['MySQL', 'MariaDB', 'Aurora RDS', 'Percona Server'],
  coming: ['Cassandra', 'ScyllaDB'],
  planned: ['PostgreSQL'],
} as const;

export type DatabaseStatus = keyof typeof DATABASES;
