/** The admin API of a cluster's ledger settings and statements, JSON or CSV. */
package io.fairledger.accounting.rest;
