package io.fairledger.integrations.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class GrantsUriTest {

    @Test
    void encodesTheClusterIdAsOneSegment() {
        assertThat(GrantsUri.of("http://h:8080/", "prod-1").toString())
                .isEqualTo("http://h:8080/api/v1/clusters/prod-1/grants");
        assertThat(GrantsUri.of("http://h:8080", "a/b c?d#e%f").toString())
                .isEqualTo("http://h:8080/api/v1/clusters/a%2Fb%20c%3Fd%23e%25f/grants");
        assertThat(GrantsUri.of("http://h", "zürich").getRawPath()).isEqualTo("/api/v1/clusters/z%C3%BCrich/grants");
        assertThat(GrantsUri.of("http://h", "zürich").getPath()).isEqualTo("/api/v1/clusters/zürich/grants");
    }

    @Test
    void refusesIdsThatWouldChangeThePath() {
        for (String id : new String[]{"", ".", ".."}) {
            assertThatThrownBy(() -> GrantsUri.of("http://h", id)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("cannot name a cluster");
        }
    }
}
