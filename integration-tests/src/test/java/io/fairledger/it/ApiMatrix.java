package io.fairledger.it;

import java.util.List;

/**
 * Every HTTP operation with the status each kind of caller must get (docs/api.md, "Who may call what"). The columns
 * are {@link Caller}s in declaration order.
 */
final class ApiMatrix {

    /** The callers of the matrix. */
    enum Caller {
        ANONYMOUS, EXPIRED_TOKEN, WRONG_AUDIENCE, TENANT_A, TENANT_B, RESOURCE_MANAGER, ADMIN;

        String id() {
            return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        }
    }

    /**
     * One operation: its OpenAPI method and path template, the concrete request, and the expected status per caller.
     */
    record Row(String method, String template, String path, String accept, String body, int... expected) {
        /** The path for {@code caller}: {@code {caller}} replaced by its name. */
        String pathFor(Caller caller) {
            return path.replace("{caller}", caller.id());
        }

        /** The body for {@code caller}, likewise. */
        String bodyFor(Caller caller) {
            return body == null ? null : body.replace("{caller}", caller.id());
        }

        int expectedFor(Caller caller) {
            return expected[caller.ordinal()];
        }

        String operation() {
            return method + " " + template;
        }
    }

    static final String CLUSTER = "demo-yarn";

    private static final String ADMIN = "/api/v1/admin/clusters";
    private static final String CLUSTERS = "/api/v1/clusters";
    private static final String JSON = "application/json";

    static List<Row> rows(String settings, String newClusterBody) {
        String c = CLUSTER;
        String whatIf = "{\"from\":\"2026-11-22T00:00:00Z\",\"until\":\"2026-11-22T02:00:00Z\"}";
        return List.of(
                admin("GET", ADMIN, ADMIN, JSON, null, 200),
                admin("POST", ADMIN, ADMIN, JSON, newClusterBody, 201),
                admin("GET", ADMIN + "/{clusterId}", ADMIN + "/" + c, JSON, null, 200),
                admin("GET", ADMIN + "/{clusterId}/tenants", ADMIN + "/" + c + "/tenants", JSON, null, 200),
                admin("GET", ADMIN + "/{clusterId}/tenants/{path}", ADMIN + "/" + c + "/tenants/root.a", JSON, null,
                        200),
                admin("PUT", ADMIN + "/{clusterId}/tenants/{path}", ADMIN + "/" + c + "/tenants/root.a", JSON,
                        "{\"weight\":1}", 200),
                admin("GET", ADMIN + "/{clusterId}/ledger-settings", ADMIN + "/" + c + "/ledger-settings", JSON, null,
                        200),
                admin("PUT", ADMIN + "/{clusterId}/ledger-settings", ADMIN + "/" + c + "/ledger-settings", JSON,
                        settings, 200),
                admin("GET", ADMIN + "/{clusterId}/statements", ADMIN + "/" + c + "/statements", JSON, null, 200),
                admin("GET", ADMIN + "/{clusterId}/statements", ADMIN + "/" + c + "/statements", "text/csv", null,
                        200),
                admin("POST", ADMIN + "/{clusterId}/what-if", ADMIN + "/" + c + "/what-if", JSON, whatIf, 200),
                admin("GET", "/api/v1/admin/audit", "/api/v1/admin/audit", JSON, null, 200),
                new Row("GET", "/api/v1/ledger-keys", "/api/v1/ledger-keys", JSON, null, 401, 401, 401, 200, 200, 200,
                        200),
                new Row("GET", CLUSTERS + "/{clusterId}/grants", CLUSTERS + "/" + c + "/grants", JSON, null, 401, 401,
                        401, 403, 403, 200, 200),
                new Row("GET", CLUSTERS + "/{clusterId}/fairness", CLUSTERS + "/" + c + "/fairness", JSON, null, 401,
                        401, 401, 200, 200, 200, 200),
                new Row("GET", CLUSTERS + "/{clusterId}/usage", CLUSTERS + "/" + c + "/usage", JSON, null,
                        401, 401, 401, 200, 200, 403, 200),
                new Row("GET", "/api/v1/usage", "/api/v1/usage?cluster=" + c, JSON, null, 401, 401, 401, 200, 200,
                        403, 200),
                // every tenant of the cluster for rm and admin, a tenant's own subtrees for a tenant
                new Row("GET", CLUSTERS + "/{clusterId}/shares", CLUSTERS + "/" + c + "/shares", JSON, null, 401, 401,
                        401, 200, 200, 200, 200),
                new Row("GET", CLUSTERS + "/{clusterId}/focus", CLUSTERS + "/" + c + "/focus", "text/csv", null,
                        401, 401, 401, 200, 200, 403, 200),
                // no period of that id: the callers who may see root.a get 404, the others 403 before any read
                new Row("GET", CLUSTERS + "/{clusterId}/tenants/{tenant}/invoices/{period}",
                        CLUSTERS + "/" + c + "/tenants/root.a/invoices/no-such-period", JSON, null, 401, 401, 401, 404,
                        403, 403, 404),
                tenantA("", JSON), tenantA("/fairness", JSON), tenantA("/grant", JSON),
                tenantA("/statements", JSON), tenantA("/statements", "text/csv"),
                new Row("GET", CLUSTERS + "/{clusterId}/tenants/{tenant}", CLUSTERS + "/" + c + "/tenants/root.b", JSON,
                        null, 401, 401, 401, 403, 200, 403, 200),
                rm("POST", CLUSTERS + "/{cluster}/jobs", CLUSTERS + "/" + c + "/jobs",
                        "{\"id\":\"job-{caller}\",\"tenant\":\"root.a\",\"tasks\":1,\"deadlineSeconds\":3600,"
                                + "\"estimatedCpuSeconds\":10}",
                        201),
                rm("GET", CLUSTERS + "/{cluster}/jobs/{id}", CLUSTERS + "/" + c + "/jobs/job-{caller}", null, 200),
                new Row("GET", CLUSTERS + "/{cluster}/jobs/{id}/explanation",
                        CLUSTERS + "/" + c + "/jobs/job-admin/explanation", JSON, null, 401, 401, 401, 200, 404, 200,
                        200),
                rm("POST", CLUSTERS + "/{cluster}/jobs/{id}/completion",
                        CLUSTERS + "/" + c + "/jobs/job-{caller}/completion", "{\"compTimeCpuSeconds\":5}", 200),
                rm("POST", CLUSTERS + "/{cluster}/workflows", CLUSTERS + "/" + c + "/workflows",
                        "{\"id\":\"wf-{caller}\",\"deadlineSeconds\":3600,\"jobs\":[{\"id\":\"a\",\"tasks\":1,"
                                + "\"taskRuntimeSeconds\":10}]}",
                        201),
                rm("GET", CLUSTERS + "/{cluster}/workflows/{id}", CLUSTERS + "/" + c + "/workflows/wf-{caller}", null,
                        200),
                admin("GET", ADMIN + "/{cluster}/admission-policy", ADMIN + "/" + c + "/admission-policy", JSON, null,
                        200),
                admin("PUT", ADMIN + "/{cluster}/admission-policy", ADMIN + "/" + c + "/admission-policy", JSON,
                        "{\"policy\":\"justice\"}", 200),
                open("/q/openapi"), notOnApiPort("/q/metrics"), notOnApiPort("/q/health/ready"));
    }

    private static Row admin(String method, String template, String path, String accept, String body, int ok) {
        return new Row(method, template, path, accept, body, 401, 401, 401, 403, 403, 403, ok);
    }

    /** A resource-manager operation; {@code {caller}} in the path or body becomes the caller's name. */
    private static Row rm(String method, String template, String path, String body, int ok) {
        return new Row(method, template, path, JSON, body, 401, 401, 401, 403, 403, ok, ok);
    }

    private static Row tenantA(String suffix, String accept) {
        return new Row("GET", CLUSTERS + "/{clusterId}/tenants/{tenant}" + suffix,
                CLUSTERS + "/" + CLUSTER + "/tenants/root.a" + suffix, accept, null, 401, 401, 401, 200, 403, 403,
                200);
    }

    private static Row open(String path) {
        return new Row("GET", path, path, "*/*", null, 200, 200, 200, 200, 200, 200, 200);
    }

    /** Served on the management port only: the API port answers 404 to everyone, token or not. */
    private static Row notOnApiPort(String path) {
        return new Row("GET", path, path, "*/*", null, 404, 404, 404, 404, 404, 404, 404);
    }

    private ApiMatrix() {
    }
}
