package io.fairledger.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;

import org.junit.jupiter.api.Test;

/** What an If-Match header names, and what is refused as malformed. */
class IfMatchTest {

    @Test
    void noHeaderAndStarAllowAnyVersion() {
        assertNull(IfMatch.versions("*"));
        assertNull(IfMatch.versions(" * "));
    }

    @Test
    void aListOfStrongTagsNamesTheirVersions() {
        assertEquals(List.of("a1"), IfMatch.versions("\"a1\""));
        assertEquals(List.of("a1", "b2", ""), IfMatch.versions("\"a1\" , \"b2\",\"\""));
        assertEquals("\"a1\"", IfMatch.etag("a1"));
        assertEquals(List.of("a1"), IfMatch.versions(IfMatch.etag("a1")));
    }

    @Test
    void anythingElseIsABadRequestNamingTheHeader() {
        for (String bad : List.of("", " ", "a1", "W/\"a1\"", "\"a1", "\"a1\" junk", "\"a\"\"b\"", "\"a b\"",
                "*, \"a1\"")) {
            ProblemException e = assertThrows(ProblemException.class, () -> IfMatch.versions(bad), bad);
            assertEquals(400, e.status(), bad);
            assertEquals("header.If-Match: must be * or one or more strong entity tags such as \"3f2a...\" (the "
                    + "ETag of a GET), got '" + bad + "'", e.getMessage());
        }
    }
}
