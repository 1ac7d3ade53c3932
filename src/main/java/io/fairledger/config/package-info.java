/** Every {@code fairledger.*} setting, typed, with its default. */
package io.fairledger.config;
