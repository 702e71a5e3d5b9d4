package dev.taskagent.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The MCP Bundle ({@code taskagent-mcp-<version>.mcpb}) and the MCP Registry's {@code server.json} that the build
 * makes from {@code src/main/mcpb}: the bundle checked with the official {@code mcpb} CLI
 * ({@code @anthropic-ai/mcpb}, pinned in {@code src/test/node/package.json}) and started as its manifest says;
 * {@code server.json} checked against the rules the registry's schema and documentation state.
 */
class McpBundleIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CLI = "node_modules/@anthropic-ai/mcpb/dist/cli/cli.js";
    private static final Pattern VARIABLE = Pattern.compile("\\$\\{([^}]+)}");

    @TempDir
    Path temp;

    @Test
    void theOfficialCliValidatesTheManifestAndRefusesABrokenOne() throws Exception {
        NodeHarness.install();
        Path manifest = staged().resolve("manifest.json");

        NodeHarness.Result valid =
                mcpb("mcpb-validate", "validate", manifest.toAbsolutePath().toString());

        assertThat(valid.exitCode()).as(valid.output()).isZero();
        assertThat(valid.output()).contains("Manifest schema validation passes!");

        // The same manifest without its author, which the manifest schema requires: the CLI must say no.
        ObjectNode broken = (ObjectNode) JSON.readTree(manifest.toFile());
        broken.remove("author");
        Path brokenFile = temp.resolve("manifest.json");
        JSON.writeValue(brokenFile.toFile(), broken);
        NodeHarness.Result refused = mcpb("mcpb-validate-broken", "validate", brokenFile.toString());

        assertThat(refused.exitCode()).as(refused.output()).isNotZero();
        assertThat(refused.output()).contains("author");
    }

    @Test
    void theBundleHoldsTheRunnableJarAndItsManifestCommandServesTheTools() throws Exception {
        NodeHarness.install();
        Set<Long> before = ChildProcesses.descendants();
        Path bundle = bundle();

        NodeHarness.Result info =
                mcpb("mcpb-info", "info", bundle.toAbsolutePath().toString());
        assertThat(info.exitCode()).as(info.output()).isZero();
        assertThat(info.output()).contains("File: " + bundle.getFileName()).contains("Size: ");

        Path unpacked = temp.resolve("unpacked");
        NodeHarness.Result unpack =
                mcpb("mcpb-unpack", "unpack", bundle.toAbsolutePath().toString(), unpacked.toString());
        assertThat(unpack.exitCode()).as(unpack.output()).isZero();

        JsonNode manifest = JSON.readTree(unpacked.resolve("manifest.json").toFile());
        assertThat(manifest.path("version").asText()).isEqualTo(version());
        NodeHarness.Result valid = mcpb(
                "mcpb-validate-unpacked",
                "validate",
                unpacked.resolve("manifest.json").toString());
        assertThat(valid.exitCode()).as(valid.output()).isZero();

        Path entryPoint =
                unpacked.resolve(manifest.path("server").path("entry_point").asText());
        assertThat(entryPoint).hasFileName("taskagent-mcp-all.jar");
        assertThat(Files.mismatch(entryPoint, JarProcess.jar()))
                .as("the bundled jar is the runnable jar")
                .isEqualTo(-1);

        // The manifest's command, as a host runs it: variables filled, each setting at its default; HOME is a
        // temporary directory, so the default store (an H2 file under HOME) is made there.
        Path home = Files.createDirectories(temp.resolve("home"));
        JsonNode config = manifest.path("server").path("mcp_config");
        assertThat(config.path("command").asText()).isEqualTo("java");
        assertThat(config.path("env").isMissingNode() || config.path("env").isEmpty())
                .isTrue();
        List<String> command = new ArrayList<>();
        command.add(JarProcess.java()); // "java" from the PATH, as this JVM's: the bundle needs one on the PATH
        for (JsonNode argument : config.path("args")) {
            command.add(substitute(argument.asText(), unpacked, home, manifest.path("user_config")));
        }
        assertThat(command).contains("--stdio").noneMatch(argument -> argument.contains("${"));

        List<String> served = toolsListedOverStdio("mcpb-server", command);

        List<String> declared = StreamSupport.stream(manifest.path("tools").spliterator(), false)
                .map(tool -> tool.path("name").asText())
                .toList();
        assertThat(served).containsExactlyInAnyOrderElementsOf(declared);
        assertThat(home.resolve(".taskagent/tasks.mv.db"))
                .as("the default store")
                .isRegularFile();
        ChildProcesses.assertNoneLeftBesides(before);
    }

    /**
     * The registry's server.json schema (2025-12-11) is published on the registry's own site and in its source
     * repository, not in an npm or Maven package; so this checks what that schema and the registry's
     * documentation of MCPB packages require, field by field.
     */
    @Test
    void serverJsonFollowsTheRegistrysRulesAndNamesTheBuiltBundle() throws Exception {
        JsonNode server = JSON.readTree(Path.of(System.getProperty("taskagent.mcp.server-json", "target/server.json"))
                .toFile());

        assertThat(server.path("$schema").asText())
                .isEqualTo("https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json");
        String name = server.path("name").asText();
        assertThat(name).hasSizeBetween(3, 200).matches("^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$");
        assertThat(name.substring(0, name.indexOf('/')))
                .as("a reverse-DNS namespace")
                .matches("io\\.github\\.[A-Za-z0-9-]+");
        assertThat(server.path("description").asText()).hasSizeBetween(1, 100);
        assertThat(server.path("title").asText()).hasSizeBetween(1, 100);
        assertThat(server.path("version").asText()).isEqualTo(version()).hasSizeLessThanOrEqualTo(255);
        JsonNode repository = server.path("repository");
        assertThat(repository.path("source").asText()).isEqualTo("github");
        String repositoryUrl = repository.path("url").asText();
        assertThat(URI.create(repositoryUrl).getScheme()).isEqualTo("https");
        assertThat(URI.create(server.path("websiteUrl").asText()).isAbsolute()).isTrue();
        assertThat(fieldNames(server))
                .isSubsetOf(
                        "$schema", "name", "title", "description", "version", "repository", "websiteUrl", "packages");
        assertThat(server.toString()).doesNotContain("@");

        assertThat(server.path("packages")).hasSize(1);
        JsonNode bundlePackage = server.path("packages").get(0);
        assertThat(fieldNames(bundlePackage))
                .containsExactlyInAnyOrder("registryType", "identifier", "version", "fileSha256", "transport");
        assertThat(bundlePackage.path("registryType").asText()).isEqualTo("mcpb");
        assertThat(bundlePackage.path("version").asText()).isEqualTo(version()).isNotEqualTo("latest");
        assertThat(bundlePackage.path("transport")).isEqualTo(JSON.readTree("{\"type\": \"stdio\"}"));
        String identifier = bundlePackage.path("identifier").asText();
        assertThat(identifier)
                .as("a GitHub release download of the built bundle, whose URL contains \"mcp\"")
                .startsWith(repositoryUrl + "/releases/download/")
                .startsWith("https://github.com/")
                .endsWith("/" + bundle().getFileName())
                .contains("mcp");
        String sha256 = bundlePackage.path("fileSha256").asText();
        assertThat(sha256).matches("^[a-f0-9]{64}$");
        assertThat(sha256).as("the SHA-256 of the built bundle").isEqualTo(sha256(bundle()));
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        Iterator<String> iterator = node.fieldNames();
        iterator.forEachRemaining(names::add);
        return names;
    }

    /** Fills a manifest argument: {@code ${__dirname}}, {@code ${HOME}} and each {@code ${user_config.KEY}}. */
    private static String substitute(String argument, Path dirname, Path home, JsonNode userConfig) {
        Matcher matcher = VARIABLE.matcher(argument);
        StringBuilder result = new StringBuilder();
        while (matcher.find()) {
            String variable = matcher.group(1);
            String value;
            if (variable.equals("__dirname")) {
                value = dirname.toAbsolutePath().toString();
            } else if (variable.equals("HOME")) {
                value = home.toAbsolutePath().toString();
            } else if (variable.startsWith("user_config.")) {
                JsonNode option = userConfig.path(variable.substring("user_config.".length()));
                assertThat(option.path("default").isValueNode())
                        .as("user_config %s has a default", variable)
                        .isTrue();
                value = substitute(option.path("default").asText(), dirname, home, userConfig);
            } else {
                throw new AssertionError("The manifest uses a variable this test does not know: " + variable);
            }
            matcher.appendReplacement(result, Matcher.quoteReplacement(value));
        }
        matcher.appendTail(result);
        return result.toString();
    }

    /** Starts the command, sends initialize and tools/list as JSON-RPC lines, returns the names listed. */
    private static List<String> toolsListedOverStdio(String name, List<String> command) throws Exception {
        Path log = Files.createDirectories(Path.of("target", "it-logs")).resolve(name + ".stderr.txt");
        Process process =
                new ProcessBuilder(command).redirectError(log.toFile()).start();
        try {
            CompletableFuture<JsonNode> answer = CompletableFuture.supplyAsync(() -> {
                try (BufferedReader lines =
                        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = lines.readLine()) != null) {
                        JsonNode message = JSON.readTree(line);
                        if (message.path("id").asInt() == 2) {
                            return message;
                        }
                    }
                    return null;
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            OutputStream in = process.getOutputStream();
            for (Map<String, Object> message : List.<Map<String, Object>>of(
                    Map.of(
                            "jsonrpc",
                            "2.0",
                            "id",
                            1,
                            "method",
                            "initialize",
                            "params",
                            Map.of(
                                    "protocolVersion", "2025-11-25",
                                    "capabilities", Map.of(),
                                    "clientInfo", Map.of("name", "mcpb-test", "version", "1"))),
                    Map.of("jsonrpc", "2.0", "method", "notifications/initialized"),
                    Map.of("jsonrpc", "2.0", "id", 2, "method", "tools/list"))) {
                in.write((JSON.writeValueAsString(message) + "\n").getBytes(StandardCharsets.UTF_8));
            }
            in.flush();
            JsonNode listed = answer.get(60, TimeUnit.SECONDS);
            assertThat(listed)
                    .as("the tools/list answer; server log:\n" + Files.readString(log))
                    .isNotNull();
            assertThat(listed.has("error")).as(listed.toString()).isFalse();
            in.close();
            assertThat(process.waitFor(70, TimeUnit.SECONDS))
                    .as("the server exits when its input ends")
                    .isTrue();
            assertThat(process.exitValue()).as(Files.readString(log)).isZero();
            return StreamSupport.stream(listed.path("result").path("tools").spliterator(), false)
                    .map(tool -> tool.path("name").asText())
                    .toList();
        } finally {
            if (process.isAlive()) {
                ChildProcesses.stop(process);
            }
        }
    }

    private static NodeHarness.Result mcpb(String name, String... arguments) throws Exception {
        List<String> command = new ArrayList<>(List.of("node", CLI));
        command.addAll(List.of(arguments));
        return NodeHarness.run(name, Duration.ofMinutes(2), command);
    }

    private static Path bundle() {
        Path bundle = Path.of(System.getProperty("taskagent.mcp.bundle", "target/missing.mcpb"));
        if (!Files.isRegularFile(bundle)) {
            throw new IllegalStateException("The bundle " + bundle + " is missing: run the tests with ./mvnw verify");
        }
        return bundle;
    }

    /** The directory the build zipped into the bundle; its manifest.json has the version filled in. */
    private static Path staged() {
        return bundle().resolveSibling("mcpb");
    }

    private static String version() {
        return System.getProperty("taskagent.mcp.version", "missing");
    }

    private static String sha256(Path file) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
    }
}
