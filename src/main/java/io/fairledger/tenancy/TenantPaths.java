package io.fairledger.tenancy;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Syntax of tenant paths: YARN queue paths start at {@code root} and use dots ({@code root.analytics.etl}); Mesos roles
 * use slashes ({@code analytics/etl}). Each segment is letters, digits, '_' or '-'.
 */
public final class TenantPaths {

    private static final Pattern SEGMENT = Pattern.compile("[A-Za-z0-9_-]{1,64}");

    private TenantPaths() {
    }

    /** The problem with {@code path} for a cluster of this kind, or null when it is valid. */
    public static String problem(ResourceManagerKind kind, String path) {
        if (path == null || path.isEmpty()) {
            return "tenant path is empty";
        }
        List<String> segments = segments(kind, path);
        for (String segment : segments) {
            if (!SEGMENT.matcher(segment).matches()) {
                return "tenant path '" + path + "' has an invalid segment '" + segment
                        + "': use 1-64 letters, digits, '_' or '-', separated by '" + kind.separator() + "'";
            }
        }
        if (kind == ResourceManagerKind.YARN && !segments.get(0).equals("root")) {
            return "YARN queue path '" + path + "' must start with 'root' (e.g. root.analytics)";
        }
        return null;
    }

    /** The parent path, or null for a top-level tenant. */
    public static String parent(ResourceManagerKind kind, String path) {
        int cut = path.lastIndexOf(kind.separator());
        return cut < 0 ? null : path.substring(0, cut);
    }

    /** {@code path}'s ancestors, the top-level one first, excluding {@code path} itself. */
    public static List<String> ancestors(ResourceManagerKind kind, String path) {
        List<String> result = new ArrayList<>();
        for (String p = parent(kind, path); p != null; p = parent(kind, p)) {
            result.add(0, p);
        }
        return result;
    }

    private static List<String> segments(ResourceManagerKind kind, String path) {
        return List.of(path.split(Pattern.quote(String.valueOf(kind.separator())), -1));
    }
}
