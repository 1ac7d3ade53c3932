package io.fairledger.testsupport;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The public data set kept beside the repository ({@code ../shared/data}: public traces and real resource-manager
 * samples, never copied in). Tests over it carry {@code @Tag(SharedData.TAG)} and run only in the Maven profile
 * {@code shared-data}, so the README's test command passes on a clone of the repository alone; in that profile a
 * missing directory fails the test with a message naming it.
 */
public final class SharedData {

    /** The JUnit tag of the tests that read {@code ../shared/data}. */
    public static final String TAG = "shared-data";

    private SharedData() {
    }

    /** {@code ../shared/data/<sub>} relative to the project root; fails, naming the path, when it is absent. */
    public static Path dir(String... sub) {
        Path dir = Path.of("..", "shared", "data").resolve(String.join("/", sub)).toAbsolutePath().normalize();
        if (!Files.isDirectory(dir)) {
            throw new AssertionError("The public data set is expected at " + dir + " (../shared/data beside the"
                    + " repository) and is absent: the tests of the Maven profile shared-data read it in place.");
        }
        return dir;
    }
}
