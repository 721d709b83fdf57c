/**
 * chasqui's ids (documents, deliveries, accounts, check events) are PostgreSQL UUIDs. A text that is none names
 * nothing: checked before a query, it reads as not found instead of a database type error.
 */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (text: string): boolean => UUID.test(text);
