/** The admin API of clusters and their tenant trees. */
package io.fairledger.tenancy.rest;
