package io.fairledger.it;

import java.util.List;

/**
 * Every HTTP operation with the status each kind of caller must get (docs/api.md, "Who may call what"). The columns
 * are {@link Caller}s in declaration order.
 */
final class ApiMatrix {

    /** The callers of the matrix. */
    enum Caller {
        ANONYMOUS, EXPIRED_TOKEN, WRONG_AUDIENCE, TENANT_A, TENANT_B, RESOURCE_MANAGER, ADMIN
    }

    /**
     * One operation: its OpenAPI method and path template, the concrete request, and the expected status per caller.
     */
    record Row(String method, String template, String path, String accept, String body, int... expected) {
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
                new Row("GET", CLUSTERS + "/{clusterId}/grants", CLUSTERS + "/" + c + "/grants", JSON, null, 401, 401,
                        401, 403, 403, 200, 200),
                new Row("GET", CLUSTERS + "/{clusterId}/fairness", CLUSTERS + "/" + c + "/fairness", JSON, null, 401,
                        401, 401, 200, 200, 200, 200),
                tenantA("", JSON), tenantA("/fairness", JSON), tenantA("/grant", JSON),
                tenantA("/statements", JSON), tenantA("/statements", "text/csv"),
                new Row("GET", CLUSTERS + "/{clusterId}/tenants/{tenant}", CLUSTERS + "/" + c + "/tenants/root.b", JSON,
                        null, 401, 401, 401, 403, 200, 403, 200),
                open("/q/health/ready"), open("/q/metrics"), open("/q/openapi"));
    }

    private static Row admin(String method, String template, String path, String accept, String body, int ok) {
        return new Row(method, template, path, accept, body, 401, 401, 401, 403, 403, 403, ok);
    }

    private static Row tenantA(String suffix, String accept) {
        return new Row("GET", CLUSTERS + "/{clusterId}/tenants/{tenant}" + suffix,
                CLUSTERS + "/" + CLUSTER + "/tenants/root.a" + suffix, accept, null, 401, 401, 401, 200, 403, 403,
                200);
    }

    private static Row open(String path) {
        return new Row("GET", path, path, "*/*", null, 200, 200, 200, 200, 200, 200, 200);
    }

    private ApiMatrix() {
    }
}
