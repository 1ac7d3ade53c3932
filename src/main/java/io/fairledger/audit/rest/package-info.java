/** The audit trail over HTTP, newest first, for admins. */
package io.fairledger.audit.rest;
