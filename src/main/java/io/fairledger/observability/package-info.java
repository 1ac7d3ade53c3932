/** Every metric and tag name fairledger publishes, and the build-info gauge. */
package io.fairledger.observability;
