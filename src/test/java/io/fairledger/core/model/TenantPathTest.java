package io.fairledger.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.fairledger.core.model.TenantPath.Syntax;

class TenantPathTest {

    @Test
    void yarnAndMesosFormsOfOneQueueAreEqual() {
        assertEquals(TenantPath.parse("root.a.b"), TenantPath.parse("a/b"));
        assertEquals(TenantPath.parse("a.b"), TenantPath.parse("/a/b"));
        assertEquals(TenantPath.ROOT, TenantPath.parse("root"));
        assertEquals(TenantPath.ROOT, TenantPath.parse("/"));
        assertEquals("root.a.b", TenantPath.parse("a/b").toString());
    }

    @Test
    void structuralRuleHoldsForEveryPath() {
        assertThrows(IllegalArgumentException.class, () -> TenantPath.parse("root..a"));
        assertThrows(IllegalArgumentException.class, () -> TenantPath.parse("a//b"));
        assertThrows(IllegalArgumentException.class, () -> TenantPath.parse(" "));
        assertThrows(IllegalArgumentException.class, () -> new TenantPath(List.of("a.b")));
    }

    @Test
    void registeredPathsFollowTheirManagersSyntax() {
        assertNull(TenantPath.problem(Syntax.YARN, "root.analytics.etl_2-x"));
        assertNull(TenantPath.problem(Syntax.YARN, "root"));
        assertNull(TenantPath.problem(Syntax.MESOS, "analytics/etl"));
        assertTrue(TenantPath.problem(Syntax.YARN, "analytics.etl").contains("must start with 'root'"));
        assertTrue(TenantPath.problem(Syntax.YARN, "root..a").contains("invalid segment ''"));
        assertTrue(TenantPath.problem(Syntax.YARN, "root.a b").contains("invalid segment 'a b'"));
        assertTrue(TenantPath.problem(Syntax.YARN, "root.a/b").contains("invalid segment 'a/b'"));
        assertTrue(TenantPath.problem(Syntax.MESOS, "/analytics").contains("invalid segment ''"));
        assertTrue(TenantPath.problem(Syntax.MESOS, "a.b").contains("invalid segment 'a.b'"));
        assertTrue(TenantPath.problem(Syntax.MESOS, "a/" + "x".repeat(65)).contains("1-64"));
        assertEquals("tenant path is empty", TenantPath.problem(Syntax.MESOS, ""));
        var e = assertThrows(IllegalArgumentException.class, () -> TenantPath.parse(Syntax.YARN, "a.b"));
        assertTrue(e.getMessage().contains("must start with 'root'"));
        assertEquals(TenantPath.parse("a/b"), TenantPath.parse(Syntax.MESOS, "a/b"));
    }

    @Test
    void ancestorsAndParentsAreWrittenInTheManagersSyntax() {
        TenantPath etl = TenantPath.parse("root.analytics.etl");
        assertEquals(List.of("root", "root.analytics"), etl.ancestors(Syntax.YARN));
        assertEquals("root.analytics", etl.parent(Syntax.YARN));
        assertEquals(List.of("analytics"), etl.ancestors(Syntax.MESOS));
        assertEquals("analytics", etl.parent(Syntax.MESOS));
        assertEquals("root", TenantPath.parse("root.a").parent(Syntax.YARN));
        assertNull(TenantPath.parse("a").parent(Syntax.MESOS));
        assertNull(TenantPath.ROOT.parent(Syntax.YARN));
        assertEquals("analytics/etl", etl.format(Syntax.MESOS));
        assertEquals("/", TenantPath.ROOT.format(Syntax.MESOS));
    }

    /** A path parsed again is the one parsed before (the live ledgers parse every fact's tenant); a bad one fails again. */
    @Test
    void aPathParsedAgainIsTheSameInstance() {
        assertSame(TenantPath.parse("root.interned.q"), TenantPath.parse("root.interned.q"));
        assertEquals(TenantPath.parse("root.interned.q"), TenantPath.parse("interned/q"));
        for (int i = 0; i < 2; i++) {
            assertThrows(IllegalArgumentException.class, () -> TenantPath.parse("root..q"));
            assertThrows(IllegalArgumentException.class, () -> TenantPath.parse(" "));
        }
    }
}
