package io.fairledger.core.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A node of the tenant tree, as the list of segments below the root. Parses YARN queue paths ({@code root.a.b}; the
 * leading {@code root} is optional) and Mesos roles ({@code a/b}, {@code /} alone is the root). Both forms of the same
 * queue are equal: {@code root.a.b} and {@code a/b} are the same tenant.
 *
 * <p>
 * Two levels of rules, one place. Every path obeys the structural rule (segments non-empty, without {@code .} or
 * {@code /}), which is all the ledger needs to place a tenant named in an event. A tenant <em>registered</em> for a
 * cluster is also held to its resource manager's {@link Syntax} ({@link #problem}): segments of 1-64 letters, digits,
 * {@code _} or {@code -}, written with that manager's separator, and a YARN queue path starting at its root queue
 * {@code root}.
 */
public record TenantPath(List<String> segments) implements Comparable<TenantPath> {

    /** The root of the tree (the whole cluster). */
    public static final TenantPath ROOT = new TenantPath(List.of());

    /** The last segment of an own line ({@link #ownLine}). */
    public static final String OWN_SEGMENT = "(own)";

    /**
     * Paths parsed so far, by their text: the live ledgers read every stored fact back and parse its tenant
     * (docs/benchmarks.md, "Ingestion"), and a cluster has few tenants. Bounded, so a stream of ever new names costs a
     * parse each and no memory; a path is immutable, so one instance serves every reader.
     */
    private static final Map<String, TenantPath> PARSED = new ConcurrentHashMap<>();
    private static final int PARSED_LIMIT = 16_384;

    /** How a resource manager writes its tenant paths. */
    public enum Syntax {
        /** YARN queues: {@code root.analytics.etl}; the root queue {@code root} is itself a queue. */
        YARN('.'),
        /** Mesos roles: {@code analytics/etl}; the root {@code /} is not a role. */
        MESOS('/');

        private final char separator;

        Syntax(char separator) {
            this.separator = separator;
        }

        /** The character between two segments. */
        public char separator() {
            return separator;
        }
    }

    public TenantPath {
        segments = List.copyOf(segments);
        for (String s : segments) {
            if (s.isEmpty() || s.contains(".") || s.contains("/")) {
                throw new IllegalArgumentException("tenant path segment must be non-empty without '.' or '/': '" + s
                        + "' in " + segments);
            }
        }
    }

    /**
     * Parses a YARN queue path or a Mesos role. A string containing {@code /} is a Mesos role, otherwise a YARN path;
     * {@code root} as first YARN segment is the root itself.
     */
    public static TenantPath parse(String text) {
        if (text == null) {
            throw new IllegalArgumentException("tenant path must not be blank");
        }
        TenantPath known = PARSED.get(text);
        if (known != null) {
            return known;
        }
        TenantPath path = parseText(text);
        if (PARSED.size() < PARSED_LIMIT) {
            PARSED.put(text, path);
        }
        return path;
    }

    private static TenantPath parseText(String text) {
        if (text.isBlank()) {
            throw new IllegalArgumentException("tenant path must not be blank");
        }
        String t = text.strip();
        if (t.contains("/")) {
            String trimmed = t.startsWith("/") ? t.substring(1) : t;
            return trimmed.isEmpty() ? ROOT : new TenantPath(List.of(trimmed.split("/", -1)));
        }
        List<String> parts = List.of(t.split("\\.", -1));
        if (parts.get(0).equals("root")) {
            parts = parts.subList(1, parts.size());
        }
        return new TenantPath(parts);
    }

    /**
     * The problem with {@code text} as the path of a tenant registered for a cluster written in {@code syntax}, or
     * null when it is valid (see the class comment).
     */
    public static String problem(Syntax syntax, String text) {
        if (text == null || text.isEmpty()) {
            return "tenant path is empty";
        }
        // segment by segment without a regular expression: a settings document checks every tenant's path
        int start = 0;
        for (int i = 0; i <= text.length(); i++) {
            if (i == text.length() || text.charAt(i) == syntax.separator()) {
                String segment = text.substring(start, i);
                if (!strictSegment(segment)) {
                    return "tenant path '" + text + "' has an invalid segment '" + segment
                            + "': use 1-64 letters, digits, '_' or '-', separated by '" + syntax.separator() + "'";
                }
                start = i + 1;
            }
        }
        if (syntax == Syntax.YARN && !(text.equals("root") || text.startsWith("root."))) {
            return "YARN queue path '" + text + "' must start with 'root' (e.g. root.analytics)";
        }
        return null;
    }

    /** Whether {@code segment} is 1-64 ASCII letters, digits, {@code _} or {@code -}. */
    private static boolean strictSegment(String segment) {
        if (segment.isEmpty() || segment.length() > 64) {
            return false;
        }
        for (int i = 0; i < segment.length(); i++) {
            char c = segment.charAt(i);
            boolean allowed = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
                    || c == '-';
            if (!allowed) {
                return false;
            }
        }
        return true;
    }

    /**
     * Parses the path of a tenant registered for a cluster written in {@code syntax}, held to {@link #problem}.
     *
     * @throws IllegalArgumentException
     *             naming the problem
     */
    public static TenantPath parse(Syntax syntax, String text) {
        String problem = problem(syntax, text);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
        return parse(text);
    }

    /**
     * This node written in {@code syntax}: {@code root.a.b} (the root is {@code root}) or {@code a/b} (the root is
     * {@code /}).
     */
    public String format(Syntax syntax) {
        if (syntax == Syntax.YARN) {
            return toString();
        }
        return isRoot() ? "/" : String.join("/", segments);
    }

    /**
     * The registered tenants above this node, the top one first, written in {@code syntax}: a YARN queue's ancestors
     * start at the root queue {@code root}, a Mesos role's at its top-level role.
     */
    public List<String> ancestors(Syntax syntax) {
        List<String> out = new ArrayList<>();
        int from = syntax == Syntax.YARN ? 0 : 1;
        for (int depth = from; depth < segments.size(); depth++) {
            out.add(new TenantPath(segments.subList(0, depth)).format(syntax));
        }
        return out;
    }

    /** The registered parent written in {@code syntax} ({@link #ancestors}' last), or null when there is none. */
    public String parent(Syntax syntax) {
        List<String> above = ancestors(syntax);
        return above.isEmpty() ? null : above.get(above.size() - 1);
    }

    /** True for the root. */
    public boolean isRoot() {
        return segments.isEmpty();
    }

    /** Number of segments: 0 for the root, 1 for its children. */
    public int depth() {
        return segments.size();
    }

    /** The parent; the root has none. */
    public TenantPath parent() {
        if (isRoot()) {
            throw new IllegalStateException("the root has no parent");
        }
        return new TenantPath(segments.subList(0, segments.size() - 1));
    }

    /** True when this node is {@code subtree} or one of its descendants. */
    public boolean isWithin(TenantPath subtree) {
        return subtree.segments.size() <= segments.size()
                && segments.subList(0, subtree.segments.size()).equals(subtree.segments);
    }

    /** A child of this node. */
    public TenantPath child(String segment) {
        var list = new ArrayList<>(segments);
        list.add(segment);
        return new TenantPath(list);
    }

    /**
     * The line of this tenant's own tasks (docs/domain.md section 2, "Own lines"): the child {@value #OWN_SEGMENT}, a
     * segment no registered tenant can have, so it never clashes with a real child.
     */
    public TenantPath ownLine() {
        return child(OWN_SEGMENT);
    }

    /** True for the own line of a tenant ({@link #ownLine}). */
    public boolean isOwnLine() {
        return !isRoot() && segments.get(segments.size() - 1).equals(OWN_SEGMENT);
    }

    /** The YARN form, {@code root.a.b}. */
    @Override
    public String toString() {
        return isRoot() ? "root" : "root." + String.join(".", segments);
    }

    @Override
    public int compareTo(TenantPath o) {
        int n = Math.min(segments.size(), o.segments.size());
        for (int i = 0; i < n; i++) {
            int c = segments.get(i).compareTo(o.segments.get(i));
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(segments.size(), o.segments.size());
    }
}
