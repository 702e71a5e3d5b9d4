package com.example.bridges;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.service.tool.ToolExecutor;
import dev.taskagent.langchain4j.LangChain4jChatModel;
import dev.taskagent.langchain4j.LangChain4jTools;
import dev.taskagent.llm.ChatOptions;
import dev.taskagent.llm.ChatRequest;
import dev.taskagent.llm.ChatResponse;
import dev.taskagent.llm.UserMessage;
import dev.taskagent.queue.TaskQueue;
import dev.taskagent.spring.ai.SpringAiChatModel;
import dev.taskagent.spring.ai.TaskAgentToolCallbackProvider;
import dev.taskagent.store.inmemory.InMemoryTaskStore;
import dev.taskagent.task.Task;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.tool.ToolCallback;

/**
 * What an application does with the bridges: taskagent's model calls go to a Spring AI model and to a
 * LangChain4j model (both answer locally, as a provider would), and each framework calls taskagent's queue
 * tools. Run on the class path and on the module path by this project's build; any failure ends the run with a
 * non-zero exit.
 */
public final class BridgesCheck {
    private BridgesCheck() {}

    public static void main(String[] args) {
        String path = BridgesCheck.class.getModule().isNamed() ? "module path" : "class path";
        System.out.println("consumer check (bridges) on the " + path + ", Java " + Runtime.version());
        InMemoryTaskStore store = new InMemoryTaskStore();
        TaskQueue queue = TaskQueue.builder(store).build();
        ChatRequest hello = new ChatRequest("You keep a task list.", List.of(new UserMessage("Hi")), List.of(),
                ChatOptions.defaults());

        // Spring AI: its model as taskagent's, taskagent's tools as its tool callbacks.
        ChatResponse springAnswer = SpringAiChatModel.of(new SpringAiEcho()).chat(hello);
        check(springAnswer.text().equals("Spring AI heard: Hi"), "Spring AI answer " + springAnswer);
        ToolCallback create = Arrays.stream(TaskAgentToolCallbackProvider.of(queue.tools()).getToolCallbacks())
                .filter(callback -> callback.getToolDefinition().name().equals("create_task"))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no create_task callback"));
        String created = create.call("{\"description\": \"Filed through Spring AI\"}");
        Task springTask = single(queue, "Filed through Spring AI");
        System.out.println("spring-ai: model answered, create_task filed task #" + springTask.id() + " (" + created
                + ")");

        // LangChain4j: its model as taskagent's, taskagent's tools as its tool executors.
        ChatResponse langChainAnswer = LangChain4jChatModel.of(new LangChain4jEcho()).chat(hello);
        check(langChainAnswer.text().equals("LangChain4j heard: Hi"), "LangChain4j answer " + langChainAnswer);
        Map<ToolSpecification, ToolExecutor> tools = LangChain4jTools.tools(queue.tools());
        ToolExecutor getTask = tools.entrySet().stream()
                .filter(entry -> entry.getKey().name().equals("get_task"))
                .map(Map.Entry::getValue)
                .findFirst()
                .orElseThrow(() -> new AssertionError("no get_task executor"));
        String read = getTask.execute(
                ToolExecutionRequest.builder()
                        .id("call-1")
                        .name("get_task")
                        .arguments("{\"task_id\": " + springTask.id() + "}")
                        .build(),
                null);
        check(read.contains("Filed through Spring AI"), "get_task through LangChain4j: " + read);
        System.out.println("langchain4j: model answered, get_task read task #" + springTask.id());

        System.out.println("consumer check (bridges) passed on the " + path);
    }

    private static Task single(TaskQueue queue, String description) {
        List<Task> tasks = queue.store().listTasks(queue.sessionId()).stream()
                .filter(task -> task.description().equals(description))
                .toList();
        check(tasks.size() == 1, "tasks named '" + description + "': " + tasks);
        return tasks.get(0);
    }

    private static void check(boolean condition, String what) {
        if (!condition) {
            throw new AssertionError("unexpected: " + what);
        }
    }

    /** A Spring AI model that answers locally, as a provider's would. */
    private static final class SpringAiEcho implements org.springframework.ai.chat.model.ChatModel {
        @Override
        public org.springframework.ai.chat.model.ChatResponse call(Prompt prompt) {
            return new org.springframework.ai.chat.model.ChatResponse(List.of(
                    new Generation(new AssistantMessage("Spring AI heard: " + prompt.getUserMessage().getText()))));
        }
    }

    /** A LangChain4j model that answers locally, as a provider's would. */
    private static final class LangChain4jEcho implements dev.langchain4j.model.chat.ChatModel {
        @Override
        public dev.langchain4j.model.chat.response.ChatResponse doChat(
                dev.langchain4j.model.chat.request.ChatRequest request) {
            String last = ((dev.langchain4j.data.message.UserMessage)
                            request.messages().get(request.messages().size() - 1))
                    .singleText();
            return dev.langchain4j.model.chat.response.ChatResponse.builder()
                    .aiMessage(AiMessage.from("LangChain4j heard: " + last))
                    .build();
        }
    }
}
