package dev.taskagent.examples;

import dev.taskagent.llm.ToolCall;
import dev.taskagent.taskfile.TaskfileTools;
import dev.taskagent.tool.ToolResult;
import dev.taskagent.tool.Toolbox;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Lists and runs the user-defined tasks of the demo project ({@code examples/taskfile-demo}) through the
 * {@code list_user_tasks} and {@code run_user_task} tools, exactly as a model's tool calls would, and
 * prints each call with its result.
 *
 * <pre>{@code
 * ./mvnw -q install -DskipTests
 * ./mvnw -q -pl examples exec:java -Dexec.mainClass=dev.taskagent.examples.TaskfileExample
 * }</pre>
 *
 * <p>Pass a project folder as the first argument to run against your own {@code .agent/Taskfile.yml}.
 */
public final class TaskfileExample {
    private static final String DEMO = "taskfile-demo";

    /**
     * One tool call and its result.
     *
     * @param tool the tool's name
     * @param argumentsJson the arguments as the model would send them
     * @param result what the tool returned
     */
    public record Exchange(String tool, String argumentsJson, ToolResult result) {}

    private TaskfileExample() {}

    /**
     * Runs the example.
     *
     * @param args optionally the project folder; default the demo project
     */
    public static void main(String[] args) {
        Path project = args.length > 0 ? Path.of(args[0]) : locateDemoProject(Path.of(""));
        System.out.println("Project: " + project.toAbsolutePath().normalize());
        for (Exchange exchange : run(project)) {
            System.out.println();
            System.out.println("> " + exchange.tool() + " " + exchange.argumentsJson());
            System.out.println((exchange.result().isError() ? "[error] " : "[ok] ")
                    + exchange.result().text());
        }
    }

    /**
     * Lists the project's tasks and runs those of the demo: a greeting with an argument, a listing, the
     * tests with an extra flag, the disk space, and a task that fails on purpose.
     *
     * @param project the folder that holds {@code .agent/Taskfile.yml}
     * @return the calls in order, with their results
     * @throws IllegalStateException if the project has no usable Taskfile
     */
    public static List<Exchange> run(Path project) {
        Toolbox tools =
                TaskfileTools.builder(project).timeout(Duration.ofMinutes(1)).build();
        if (tools.isEmpty()) {
            throw new IllegalStateException(
                    "No usable .agent/Taskfile.yml in " + project + "; the log above says why.");
        }
        List<Exchange> exchanges = new ArrayList<>();
        call(tools, exchanges, "list_user_tasks", "{}");
        call(tools, exchanges, "run_user_task", "{\"task_name\": \"greet\", \"args\": [\"Ada Lovelace\"]}");
        call(tools, exchanges, "run_user_task", "{\"task_name\": \"ls\", \"args\": [\"-1\"]}");
        call(tools, exchanges, "run_user_task", "{\"task_name\": \"test\", \"args\": [\"--verbose\"]}");
        call(tools, exchanges, "run_user_task", "{\"task_name\": \"disk\"}");
        call(tools, exchanges, "run_user_task", "{\"task_name\": \"fail\"}");
        return exchanges;
    }

    private static void call(Toolbox tools, List<Exchange> exchanges, String tool, String argumentsJson) {
        ToolResult result = tools.call(new ToolCall("call-" + (exchanges.size() + 1), tool, argumentsJson));
        exchanges.add(new Exchange(tool, argumentsJson, result));
    }

    /**
     * Finds the demo project whether the example runs from the repository root, from the examples folder,
     * or from anywhere else (through the location of the compiled classes).
     *
     * @param workingDirectory where the JVM runs
     * @return the demo project folder
     * @throws IllegalStateException if it is nowhere to be found
     */
    public static Path locateDemoProject(Path workingDirectory) {
        Set<Path> candidates = new LinkedHashSet<>();
        Path base = workingDirectory.toAbsolutePath().normalize();
        candidates.add(base.resolve("examples").resolve(DEMO));
        candidates.add(base.resolve(DEMO));
        Path classes = classesLocation();
        if (classes != null) {
            for (Path folder = classes; folder != null; folder = folder.getParent()) {
                candidates.add(folder.resolve(DEMO));
                candidates.add(folder.resolve("examples").resolve(DEMO));
            }
        }
        for (Path candidate : candidates) {
            if (Files.isRegularFile(candidate.resolve(".agent").resolve("Taskfile.yml"))) {
                return candidate;
            }
        }
        throw new IllegalStateException("The demo project (" + DEMO + "/.agent/Taskfile.yml) was not found; looked"
                + " in " + candidates + ". Run from the repository or pass the project folder as an argument.");
    }

    private static Path classesLocation() {
        try {
            return Path.of(TaskfileExample.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
        } catch (URISyntaxException | SecurityException | NullPointerException e) {
            return null;
        }
    }
}
