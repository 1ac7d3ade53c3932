package io.fairledger.integrations.yarn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import io.fairledger.integrations.common.MiniJson;

class GrantsClientTest {

    @Test
    void readsTheOrderAndTargetsOfEachLevel() {
        String body = "{\"cluster\":\"c\",\"asOf\":\"2026-11-23T10:00:00Z\",\"intervalSeconds\":10.0,"
                + "\"validUntil\":\"2026-11-23T10:00:10Z\",\"levels\":[{\"parent\":\"root\",\"grants\":["
                + "{\"tenant\":\"root.steady\",\"vcores\":3.5,\"memoryMb\":4096.0,\"gpus\":0.0,\"share\":0.4},"
                + "{\"tenant\":\"root.bursty\",\"vcores\":4.5,\"memoryMb\":4096,\"gpus\":0,\"share\":0.6}]},"
                + "{\"parent\":\"root.empty\",\"grants\":[]}]}";
        var levels = GrantsClient.parse(body, 1000).levels();
        assertThat(levels.get("root").get("root.steady"))
                .isEqualTo(new GrantsClient.Target(0, 3.5, 4096, 0, 0.4));
        assertThat(levels.get("root").get("root.bursty").rank()).isEqualTo(1);
        assertThat(levels.get("root.empty")).isEmpty();
    }

    @Test
    void brokenJsonIsAnErrorNotAnEmptyGrant() {
        assertThatThrownBy(() -> GrantsClient.parse("{\"levels\":[", 1000))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> MiniJson.parse("{\"a\":1} x")).hasMessageContaining("trailing");
        assertThat(MiniJson.parse("{\"s\":\"a\\\"b\\u0041\",\"n\":null,\"t\":true,\"x\":-1.5e2}").toString())
                .isEqualTo("{s=a\"bA, n=null, t=true, x=-150.0}");
    }
}
