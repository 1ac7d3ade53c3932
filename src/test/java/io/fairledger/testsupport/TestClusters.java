package io.fairledger.testsupport;

import static io.restassured.RestAssured.given;

import io.restassured.http.ContentType;

/** Clusters registered through the admin API of the server under test (loopback admin in tests). */
public final class TestClusters {

    private TestClusters() {
    }

    /**
     * Registers a YARN cluster with 10 vcores, hourly periods from 2026-11-20T00:00Z, 30 minutes of allowed lateness,
     * USAGE at 1 per vcore-hour and the one tenant {@code root.a}: one vcore for one hour is a charge of 1.
     */
    public static void registerHourlyUsage(String cluster) {
        registerYarn(cluster, """
                {"registeredAt":"2026-11-20T00:00:00Z","capacity":{"vcores":10,"memoryMb":10240,"gpus":0},
                 "memory":{"mode":"FULL"},"period":{"length":"PT1H"},"allowedLateness":"PT30M",
                 "chargeback":{"model":"USAGE","plans":[{"name":"std","perVcoreHour":"1","perGbHour":"0",
                 "perGpuHour":"0"}]},"tenants":[{"path":"root.a","weight":1}]}""");
    }

    /** Registers a YARN cluster and puts its ledger settings {@code settings} (JSON); each answer must be a success. */
    public static void registerYarn(String cluster, String settings) {
        given().contentType(ContentType.JSON).body("{\"id\":\"" + cluster + "\",\"resourceManager\":\"YARN\"}")
                .post("/api/v1/admin/clusters").then().statusCode(201);
        given().contentType(ContentType.JSON).body(settings)
                .put("/api/v1/admin/clusters/" + cluster + "/ledger-settings").then().statusCode(200);
    }
}
