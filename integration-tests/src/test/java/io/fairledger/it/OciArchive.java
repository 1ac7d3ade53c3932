package io.fairledger.it;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.GZIPInputStream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * An OCI image archive as {@code jib:buildTar} writes it (an OCI layout in a tar: {@code index.json}, the manifest,
 * config and gzipped layers under {@code blobs/sha256/}), read without a container engine: the image's config JSON and
 * the mode of every file its layers hold.
 */
final class OciArchive {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path tar;

    private OciArchive(Path tar) {
        this.tar = tar;
    }

    static OciArchive of(Path tar) {
        return new OciArchive(tar);
    }

    /** The image's config: {@code config.User}, {@code config.Labels}, {@code config.Entrypoint}, ... */
    JsonNode config() {
        return blob(manifest().at("/config/digest").asText());
    }

    /** The name the archive gives its image ({@code org.opencontainers.image.ref.name} of the index). */
    String manifestName() {
        return json(entry("index.json")).at("/manifests/0/annotations/org.opencontainers.image.ref.name").asText();
    }

    JsonNode manifest() {
        JsonNode index = json(entry("index.json"));
        return blob(index.at("/manifests/0/digest").asText());
    }

    /** Path (without a leading slash) to permission bits (e.g. 0755) of every file and directory in the layers, later layers last. */
    Map<String, Integer> files() {
        Map<String, Integer> files = new LinkedHashMap<>();
        for (JsonNode layer : manifest().get("layers")) {
            try (InputStream in = new GZIPInputStream(
                    new java.io.ByteArrayInputStream(entry(blobPath(layer.get("digest").asText()))))) {
                forEachEntry(in, (name, mode, content) -> files
                        .put(name.replaceFirst("^\\./", "").replaceFirst("/$", ""), mode));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read layer " + layer, e);
            }
        }
        return files;
    }

    /** The content of a file in the layers. */
    String fileContent(String path) {
        String[] found = {null};
        for (JsonNode layer : manifest().get("layers")) {
            try (InputStream in = new GZIPInputStream(
                    new java.io.ByteArrayInputStream(entry(blobPath(layer.get("digest").asText()))))) {
                forEachEntry(in, (name, mode, content) -> {
                    if (name.replaceFirst("^\\./", "").equals(path)) {
                        found[0] = new String(content.readAllBytes(), StandardCharsets.UTF_8);
                    }
                });
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read layer " + layer, e);
            }
        }
        if (found[0] == null) {
            throw new AssertionError("no " + path + " in the image's layers");
        }
        return found[0];
    }

    private JsonNode blob(String digest) {
        return json(entry(blobPath(digest)));
    }

    private static String blobPath(String digest) {
        return "blobs/" + digest.replace(':', '/');
    }

    /** One entry of the archive, found by reading it from the start (layers are large: none is kept). */
    private byte[] entry(String wanted) {
        byte[][] found = {null};
        java.util.List<String> names = new java.util.ArrayList<>();
        try (InputStream in = Files.newInputStream(tar)) {
            forEachEntry(in, (name, mode, content) -> {
                names.add(name);
                if (name.equals(wanted)) {
                    found[0] = content.readAllBytes();
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + tar, e);
        }
        if (found[0] == null) {
            throw new AssertionError("no " + wanted + " in " + tar + "; it holds " + names);
        }
        return found[0];
    }

    private static JsonNode json(byte[] content) {
        try {
            return JSON.readTree(content);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private interface EntryVisitor {
        void visit(String name, int mode, InputStream content) throws IOException;
    }

    /** Reads ustar/pax entries: 512-byte headers, contents padded to 512 bytes; pax path records override names. */
    private static void forEachEntry(InputStream in, EntryVisitor visitor) throws IOException {
        String paxPath = null;
        while (true) {
            byte[] header = in.readNBytes(512);
            if (header.length < 512 || header[0] == 0) {
                return;
            }
            String name = text(header, 0, 100);
            String prefix = text(header, 345, 155);
            if (!prefix.isEmpty()) {
                name = prefix + "/" + name;
            }
            int mode = (int) octal(header, 100, 8) & 07777;
            long size = octal(header, 124, 12);
            char type = (char) header[156];
            byte[] content = in.readNBytes((int) size);
            in.skipNBytes((512 - size % 512) % 512);
            if (type == 'x') {
                paxPath = paxValue(new String(content, StandardCharsets.UTF_8), "path");
                continue;
            }
            if (type == 'g') {
                continue;
            }
            if (paxPath != null) {
                name = paxPath;
                paxPath = null;
            }
            visitor.visit(name, mode, new java.io.ByteArrayInputStream(content));
        }
    }

    private static String paxValue(String records, String key) {
        for (String record : records.split("\n")) {
            int space = record.indexOf(' ');
            if (space > 0 && record.startsWith(key + "=", space + 1)) {
                return record.substring(space + 2 + key.length());
            }
        }
        return null;
    }

    private static String text(byte[] header, int offset, int length) {
        int end = offset;
        while (end < offset + length && header[end] != 0) {
            end++;
        }
        return new String(header, offset, end - offset, StandardCharsets.UTF_8);
    }

    private static long octal(byte[] header, int offset, int length) {
        String digits = text(header, offset, length).trim();
        return digits.isEmpty() ? 0 : Long.parseLong(digits, 8);
    }
}
