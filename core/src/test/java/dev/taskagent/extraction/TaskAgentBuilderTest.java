package dev.taskagent.extraction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.taskagent.llm.ChatModel;
import dev.taskagent.store.TaskStore;
import dev.taskagent.store.TransactionWork;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Bad configuration and bad host input fail fast, before the store or the model is touched. */
class TaskAgentBuilderTest {
    private static final TaskStore UNTOUCHABLE_STORE = new TaskStore() {
        @Override
        public <R> R inTransaction(TransactionWork<R> work) {
            throw new AssertionError("the store must not be touched");
        }
    };
    private static final ChatModel UNTOUCHABLE_MODEL = request -> {
        throw new AssertionError("the model must not be called");
    };

    @Test
    void buildingWithoutAStoreOrAModelNamesWhatIsMissing() {
        assertThatThrownBy(() -> TaskAgent.builder(null, UNTOUCHABLE_MODEL))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("store");
        assertThatThrownBy(() -> TaskAgent.builder(UNTOUCHABLE_STORE, null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("TaskAgent needs a chat model: pass a ChatModel to TaskAgent.builder(store, chatModel),"
                        + " e.g. ChatModels.discover(), which finds taskagent-llm-openai on the class path and"
                        + " configures it from OPENAI_API_KEY, or OpenAiChatModel.builder().apiKey(...).build()");
    }

    @Test
    void settersRejectBadValuesAtOnceAndNameThem() {
        assertThatThrownBy(() ->
                        TaskAgent.builder(UNTOUCHABLE_STORE, UNTOUCHABLE_MODEL).maxIterations(0))
                .hasMessage("maxIterations must be at least 1, was 0");
        assertThatThrownBy(() ->
                        TaskAgent.builder(UNTOUCHABLE_STORE, UNTOUCHABLE_MODEL).previousProgressWindow(-1))
                .hasMessage("previousProgressWindow must not be negative, was -1");
        assertThatThrownBy(() ->
                        TaskAgent.builder(UNTOUCHABLE_STORE, UNTOUCHABLE_MODEL).partTruncationLength(0))
                .hasMessage("partTruncationLength must be at least 1, was 0");
        assertThatThrownBy(() ->
                        TaskAgent.builder(UNTOUCHABLE_STORE, UNTOUCHABLE_MODEL).listener(null))
                .hasMessage("listener");
        assertThatThrownBy(() ->
                        TaskAgent.builder(UNTOUCHABLE_STORE, UNTOUCHABLE_MODEL).onTaskFinished(null))
                .hasMessage("finishedTaskHook");
    }

    @Test
    void runRejectsBadHostInputBeforeTouchingStoreOrModel() {
        TaskAgent agent =
                TaskAgent.builder(UNTOUCHABLE_STORE, UNTOUCHABLE_MODEL).build();
        List<ConversationMessage> one = List.of(ConversationMessage.user("m1", "hi"));

        assertThatThrownBy(() -> agent.run(" ", one))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("sessionId must not be blank");
        assertThatThrownBy(() -> agent.run(null, one)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> agent.run("s", null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> agent.run("s\uDFFF", one))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("sessionId contains an unpaired UTF-16 surrogate (U+DFFF)");
        assertThatThrownBy(() -> agent.run("s", List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("messages is empty; pass the batch of new messages of session 's'");
        assertThatThrownBy(() -> agent.run("s", Arrays.asList(ConversationMessage.user("m1", "hi"), null)))
                .isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> agent.run(
                        "s", List.of(ConversationMessage.user("m1", "a"), ConversationMessage.user("m1", "b"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("message id 'm1' occurs twice in the batch; each message of a batch needs its own id");
    }

    @Test
    void messagesRejectBlankIdsAndMissingParts() {
        assertThatThrownBy(() -> ConversationMessage.user(" ", "hi")).hasMessage("message id must not be blank");
        assertThatThrownBy(() -> ConversationMessage.user("m\u0000", "hi"))
                .hasMessage(
                        "message id contains a NUL character (U+0000) at index 1, which no store can keep; remove it");
        assertThatThrownBy(() -> new ConversationMessage("m1", ConversationMessage.Role.USER, List.of()))
                .hasMessage("message m1 has no parts; give it at least one");
        assertThat(ConversationMessage.Role.ASSISTANT.label()).isEqualTo("agent");
    }
}
