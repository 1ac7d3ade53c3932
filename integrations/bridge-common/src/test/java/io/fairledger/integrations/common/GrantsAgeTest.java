package io.fairledger.integrations.common;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

class GrantsAgeTest {

    private final AtomicLong now = new AtomicLong(5_000_000);
    private final GrantsAge age = new GrantsAge(1_000, now::get);

    @Test
    void grantsAreValidForTheServersIntervalPlusOnePollAfterTheAnswerThatConfirmedThem() {
        assertThat(age.ageMillis()).as("counted from the start before the first answer").isZero();
        now.addAndGet(2_001);
        assertThat(age.stale()).as("no answer in two polls").isTrue();
        age.confirmed(10_000);
        assertThat(age.validityMillis()).isEqualTo(11_000);
        now.addAndGet(11_000);
        assertThat(age.ageMillis()).isEqualTo(11_000);
        assertThat(age.stale()).isFalse();
        now.addAndGet(1);
        assertThat(age.stale()).isTrue();
        age.confirmed(10_000);
        assertThat(age.ageMillis()).isZero();
    }

    @Test
    void staleGrantsAreReportedAtMostOnceAMinute() {
        age.confirmed(10_000);
        assertThat(age.reportDue()).as("valid").isFalse();
        now.addAndGet(12_000);
        assertThat(age.reportDue()).isTrue();
        now.addAndGet(GrantsAge.REPORT_EVERY_MILLIS - 1);
        assertThat(age.reportDue()).isFalse();
        now.addAndGet(1);
        assertThat(age.reportDue()).isTrue();
    }
}
