/** The admin API of a cluster's ledger settings, its statements (JSON or CSV) and what-ifs over them. */
package io.fairledger.accounting.rest;
