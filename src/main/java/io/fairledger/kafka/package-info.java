/**
 * The one rule for every Kafka client's settings (the operator's {@code kafka.*} over fairledger's defaults) and the
 * startup check that names a setting that cannot work.
 */
package io.fairledger.kafka;
