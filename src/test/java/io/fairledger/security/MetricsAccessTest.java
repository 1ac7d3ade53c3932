package io.fairledger.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;

import org.junit.jupiter.api.Test;

/** Who may read the metrics: the bearer of the scrape token when one is set, else callers on this machine only. */
class MetricsAccessTest {

    private static final String TOKEN = "0123456789abcdef0123";

    @Test
    void withoutATokenOnlyLoopbackCallersAreAnswered() {
        assertThat(MetricsAccess.allows(null, null, true)).isTrue();
        assertThat(MetricsAccess.allows(null, null, false)).isFalse();
        assertThat(MetricsAccess.allows(null, "Bearer " + TOKEN, false)).as("no token to match").isFalse();
    }

    @Test
    void withATokenEveryCallerMustSendIt() {
        assertThat(MetricsAccess.allows(TOKEN, "Bearer " + TOKEN, false)).isTrue();
        assertThat(MetricsAccess.allows(TOKEN, "bearer " + TOKEN, false)).as("the scheme in any case").isTrue();
        assertThat(MetricsAccess.allows(TOKEN, "Bearer " + TOKEN, true)).isTrue();
        assertThat(MetricsAccess.allows(TOKEN, null, true)).as("loopback is no exception").isFalse();
        assertThat(MetricsAccess.allows(TOKEN, "Bearer " + TOKEN + "x", false)).isFalse();
        assertThat(MetricsAccess.allows(TOKEN, "Bearer " + TOKEN.substring(1), false)).isFalse();
        assertThat(MetricsAccess.allows(TOKEN, "Basic " + TOKEN, false)).isFalse();
        assertThat(MetricsAccess.allows(TOKEN, "Bearer", false)).isFalse();
        assertThat(MetricsAccess.allows(TOKEN, "Bearer ", false)).isFalse();
        assertThat(MetricsAccess.allows(TOKEN, TOKEN, false)).isFalse();
        assertThat(MetricsAccess.allows(TOKEN, "", false)).isFalse();
    }

    @Test
    void aBlankTokenIsNoneAndAShortOneIsRefused() {
        assertThat(MetricsAccess.checkedToken(Optional.empty())).isNull();
        assertThat(MetricsAccess.checkedToken(Optional.of("   "))).isNull();
        assertThat(MetricsAccess.checkedToken(Optional.of(" " + TOKEN + "\n"))).isEqualTo(TOKEN);
        assertThatThrownBy(() -> MetricsAccess.checkedToken(Optional.of("secret")))
                .hasMessageContaining("fairledger.metrics.scrape-token has 6 characters, fewer than 16");
    }

    @Test
    void theWarningAboutAnUnreachableEndpointKnowsLoopbackHosts() {
        assertThat(MetricsAccess.isLoopbackHost("127.0.0.1")).isTrue();
        assertThat(MetricsAccess.isLoopbackHost("localhost")).isTrue();
        assertThat(MetricsAccess.isLoopbackHost("::1")).isTrue();
        assertThat(MetricsAccess.isLoopbackHost("0.0.0.0")).isFalse();
    }
}
