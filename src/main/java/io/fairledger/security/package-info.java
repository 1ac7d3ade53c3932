/**
 * Who may see and do what: the realm roles, the tenants a caller's token covers, and the loopback-admin trust of
 * standalone mode.
 */
package io.fairledger.security;
