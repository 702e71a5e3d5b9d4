package com.example.consumer;

import dev.taskagent.llm.ChatModelProvider;
import dev.taskagent.llm.ChatModels;
import dev.taskagent.llm.ToolCall;
import dev.taskagent.queue.TaskQueue;
import dev.taskagent.store.TaskStore;
import dev.taskagent.store.jdbc.JdbcTaskStore;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import dev.taskagent.taskfile.TaskfileTools;
import dev.taskagent.tool.ToolResult;
import dev.taskagent.tool.Toolbox;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What an application does first with taskagent: open an H2 store, queue a task and claim it, find the
 * OpenAI model through ServiceLoader (built, never called) and list a project's Taskfile tasks. Run on the
 * class path and on the module path by this project's build; any failure ends the run with a non-zero exit.
 */
public final class ConsumerCheck {
    private ConsumerCheck() {}

    public static void main(String[] args) throws IOException {
        String path = ConsumerCheck.class.getModule().isNamed() ? "module path" : "class path";
        System.out.println("consumer check on the " + path + ", Java " + Runtime.version());

        try (TaskStore store = JdbcTaskStore.open("jdbc:h2:mem:consumer-check")) {
            TaskQueue queue = TaskQueue.builder(store).build();
            Task created = queue.create(queue.newTask("Ship the consumer check").assignee("ci").build());
            // Claimed as an agent does, through the queue's signup_for_task tool.
            ToolResult signup =
                    queue.tools().call(new ToolCall("call-1", "signup_for_task", "{\"agent_name\":\"ci\"}"));
            check(!signup.isError() && signup.text().startsWith("Task #" + created.id() + " claimed"),
                    "signup " + signup);
            Task claimed = queue.get(created.id()).orElseThrow();
            check(claimed.status() == TaskStatus.RUNNING, "claimed " + claimed);
            System.out.println("store: task #" + claimed.id() + " created and claimed on H2");
        }

        ChatModelProvider provider = ChatModels.findProvider();
        check(provider.name().equals("openai"), "provider " + provider.name());
        // Builds the OpenAI client (OkHttp, Okio, Kotlin, Jackson's Kotlin module) without a request.
        System.out.println("model: " + provider.name() + " provider found, built " + provider.create());

        Path project = Files.createTempDirectory("consumer-check");
        Files.createDirectories(project.resolve(".agent"));
        Files.writeString(
                project.resolve(".agent/Taskfile.yml"),
                "version: '3'\ntasks:\n  hello:\n    desc: Says hello\n    cmds:\n      - echo hello\n");
        Toolbox tools = TaskfileTools.forProject(project);
        ToolResult listed = tools.call(new ToolCall("call-2", "list_user_tasks", "{}"));
        check(!listed.isError() && listed.text().contains("hello"), "list_user_tasks: " + listed);
        System.out.println("taskfile: list_user_tasks found the project's task");

        Optional<Module> testkit = ModuleLayer.boot().findModule("dev.taskagent.testkit");
        testkit.ifPresent(module -> System.out.println("testkit: " + module.getDescriptor().toNameAndVersion()
                + " resolved with " + module.getDescriptor().requires()));

        System.out.println("consumer check passed on the " + path);
    }

    private static void check(boolean condition, String what) {
        if (!condition) {
            throw new AssertionError("unexpected: " + what);
        }
    }
}
