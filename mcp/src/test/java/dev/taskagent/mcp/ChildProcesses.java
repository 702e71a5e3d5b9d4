package dev.taskagent.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/** Starts the server's command line in a child JVM, and checks that no child outlives its test. */
final class ChildProcesses {
    private ChildProcesses() {}

    /** The command that runs {@code ServerCommand} with this JVM's class path. */
    static List<String> serverCommand(String... arguments) {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add("dev.taskagent.mcp.internal.ServerCommand");
        command.addAll(List.of(arguments));
        return command;
    }

    /** The pids of this JVM's descendants now. */
    static Set<Long> descendants() {
        return ProcessHandle.current().descendants().map(ProcessHandle::pid).collect(Collectors.toSet());
    }

    /** Stops a process by its pid (and its own children), and waits until it and they are gone. */
    static void stop(Process process) {
        List<ProcessHandle> family = new ArrayList<>(process.descendants().toList());
        family.add(process.toHandle());
        family.forEach(ProcessHandle::destroy);
        McpClients.await("process " + process.pid() + " and its children to exit", Duration.ofSeconds(20), () -> {
            family.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
            return family.stream().noneMatch(ProcessHandle::isAlive);
        });
    }

    /** Checks, within a deadline, that every descendant started since {@code before} is gone. */
    static void assertNoneLeftBesides(Set<Long> before) {
        McpClients.await("every child process to exit", Duration.ofSeconds(20), () -> {
            Set<Long> now = descendants();
            now.removeAll(before);
            return now.isEmpty();
        });
        Set<Long> left = descendants();
        left.removeAll(before);
        assertThat(left).as("child processes left behind").isEmpty();
    }
}
