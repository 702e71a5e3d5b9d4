package dev.taskagent.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * Prints, in Markdown, the machine a benchmark run measures: date, cores, CPU, memory, JDK, operating
 * system, load, and the versions of H2 and of the PostgreSQL and MariaDB servers the claim benchmarks
 * use. Not thread-safe; a command-line tool.
 */
public final class Machine {
    private Machine() {}

    /**
     * Prints the description.
     *
     * @param args ignored
     */
    public static void main(String[] args) {
        System.out.print(describe());
    }

    static String describe() {
        StringBuilder out = new StringBuilder();
        line(out, "date", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        line(out, "cores", Runtime.getRuntime().availableProcessors() + " (" + cpuModel() + ")");
        line(out, "memory", memory());
        line(
                out,
                "JDK",
                System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version") + " ("
                        + System.getProperty("java.vm.vendor") + ")");
        line(out, "OS", System.getProperty("os.name") + " " + System.getProperty("os.version"));
        line(out, "load average (1, 5, 15 min) at start", firstLine(Paths.get("/proc/loadavg"), "unknown"));
        line(out, "H2", version("jdbc:h2:mem:"));
        line(
                out,
                "PostgreSQL",
                version(urlOf(BenchDatabase.POSTGRES_URL_VARIABLE, BenchDatabase.DEFAULT_POSTGRES_URL)));
        line(out, "MariaDB", version(urlOf(BenchDatabase.MARIADB_URL_VARIABLE, BenchDatabase.DEFAULT_MARIADB_URL)));
        return out.toString();
    }

    private static void line(StringBuilder out, String name, String value) {
        out.append("- ").append(name).append(": ").append(value).append('\n');
    }

    private static String urlOf(String variable, String defaultUrl) {
        String url = System.getenv(variable);
        return url == null || url.isBlank() ? defaultUrl : url;
    }

    private static String version(String url) {
        try (Connection connection = DriverManager.getConnection(url)) {
            DatabaseMetaData metaData = connection.getMetaData();
            return metaData.getDatabaseProductName() + " " + metaData.getDatabaseProductVersion() + " (driver "
                    + metaData.getDriverName() + " " + metaData.getDriverVersion() + ")";
        } catch (SQLException e) {
            return "unreachable (" + e.getMessage() + ")";
        }
    }

    private static String cpuModel() {
        try {
            List<String> lines = Files.readAllLines(Paths.get("/proc/cpuinfo"));
            return lines.stream()
                    .filter(line -> line.startsWith("model name"))
                    .map(line -> line.substring(line.indexOf(':') + 1).trim())
                    .findFirst()
                    .orElse("unknown CPU");
        } catch (IOException e) {
            return "unknown CPU";
        }
    }

    private static String memory() {
        String total = firstLine(Paths.get("/proc/meminfo"), "unknown");
        return total.replaceAll("\\s+", " ");
    }

    private static String firstLine(Path path, String fallback) {
        try {
            List<String> lines = Files.readAllLines(path);
            return lines.isEmpty() ? fallback : lines.get(0).trim();
        } catch (IOException e) {
            return fallback;
        }
    }
}
