/** The usage report over HTTP, each tenant seeing only its own subtrees. */
package io.fairledger.reports.rest;
