package dev.taskagent.llm.openai;

import dev.taskagent.llm.ChatModel;
import dev.taskagent.llm.ChatModelProvider;
import dev.taskagent.llm.ScriptedChatModel;

/**
 * A second provider, registered only in {@code test-providers/} (not in {@code META-INF/services}) so
 * that a test's class loader can make discovery see two providers.
 */
public final class SecondTestProvider implements ChatModelProvider {
    /** Called by ServiceLoader. */
    public SecondTestProvider() {}

    @Override
    public String name() {
        return "second";
    }

    @Override
    public ChatModel create() {
        return ScriptedChatModel.builder().thenStop().build();
    }
}
