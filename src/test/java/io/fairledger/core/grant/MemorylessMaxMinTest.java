package io.fairledger.core.grant;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

class MemorylessMaxMinTest extends GrantPolicyContract {

    @Override
    GrantPolicy policy() {
        return new MemorylessMaxMin();
    }

    @Test
    void historyIsIgnored() {
        var req = new GrantRequest(new double[]{1}, new double[]{100}, 1,
                List.of(new Claimant("A", 1, 50, new double[]{80}, 60, 1),
                        new Claimant("B", 1, 50, new double[]{70}, 140, 1)));
        var g = new MemorylessMaxMin().grant(req).byId();
        assertThat(g.get("A").allocation()[0]).isEqualTo(50);
        assertThat(g.get("B").allocation()[0]).isEqualTo(50);
    }
}
