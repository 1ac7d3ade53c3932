package io.fairledger.core.model;

import java.util.List;

/**
 * A node of the tenant tree, as the list of segments below the root. Parses YARN queue paths ({@code root.a.b}; the
 * leading {@code root} is optional) and Mesos roles ({@code a/b}, {@code /} alone is the root). Both forms of the same
 * queue are equal: {@code root.a.b} and {@code a/b} are the same tenant.
 */
public record TenantPath(List<String> segments) implements Comparable<TenantPath> {

    /** The root of the tree (the whole cluster). */
    public static final TenantPath ROOT = new TenantPath(List.of());

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
        if (text == null || text.isBlank()) {
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
        var list = new java.util.ArrayList<>(segments);
        list.add(segment);
        return new TenantPath(list);
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
