package io.fairledger.core.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.regex.Pattern;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import io.fairledger.core.model.TenantPath.Syntax;

/**
 * {@link TenantPath#problem} checks segments without a regular expression; it says what the rule written as one says
 * ({@code [A-Za-z0-9_-]{1,64}} per segment, a YARN path from {@code root}) of any text, non-ASCII letters, spaces, empty
 * and 64- and 65-character segments included.
 */
class TenantPathProblemProperties {

    private static final Pattern SEGMENT = Pattern.compile("[A-Za-z0-9_-]{1,64}");

    /** The rule as a regular expression: null when {@code text} obeys it, else the segment it fails on or "root". */
    private static String reference(Syntax syntax, String text) {
        List<String> parts = List.of(text.split(Pattern.quote(String.valueOf(syntax.separator())), -1));
        for (String segment : parts) {
            if (!SEGMENT.matcher(segment).matches()) {
                return "'" + segment + "'";
            }
        }
        return syntax == Syntax.YARN && !parts.get(0).equals("root") ? "root" : null;
    }

    @Provide
    Arbitrary<String> texts() {
        Arbitrary<String> segment = Arbitraries.oneOf(Arbitraries.of("root", "a", "", "x".repeat(64), "y".repeat(65)),
                Arbitraries.strings().withChars("aZ09_-. /é\t").ofMaxLength(6));
        return segment.list().ofMinSize(1).ofMaxSize(4).flatMap(segments -> Arbitraries.of(".", "/")
                .map(separator -> String.join(separator, segments)));
    }

    @Property(tries = 3000)
    void saysWhatTheRegularExpressionSays(@ForAll("texts") String text, @ForAll Syntax syntax) {
        String problem = TenantPath.problem(syntax, text);
        String expected = text.isEmpty() ? null : reference(syntax, text);
        if (text.isEmpty()) {
            assertThat(problem).isEqualTo("tenant path is empty");
        } else if (expected == null) {
            assertThat(problem).as(text).isNull();
        } else if (expected.equals("root")) {
            assertThat(problem).as(text).contains("must start with 'root'");
        } else {
            assertThat(problem).as(text).contains("invalid segment " + expected);
        }
    }
}
