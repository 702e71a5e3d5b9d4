package dev.taskagent.spring.ai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.taskagent.llm.ChatModelException;
import dev.taskagent.llm.ChatRequest;
import dev.taskagent.llm.ChatResponse;
import dev.taskagent.llm.FinishReason;
import dev.taskagent.llm.TokenUsage;
import dev.taskagent.llm.UserMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.metadata.ChatGenerationMetadata;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import reactor.core.publisher.Flux;

/** The bridge over a plain Spring AI model of the test's own: no tool calling, no streaming unless given. */
class SpringAiChatModelTest {
    private static final ChatRequest HELLO = ChatRequest.of("", List.of(new UserMessage("Hello")), List.of());

    @Test
    void aModelFromAnUnknownModuleIsNamedFromItsOptionsOrAsUnknown() {
        SpringAiChatModel model = SpringAiChatModel.of(new EchoModel(Flux.empty()));

        assertThat(model.providerName()).isEqualTo("unknown");
        assertThat(model.modelName()).isEqualTo("echo-1");
        assertThat(model)
                .hasToString(
                        "SpringAiChatModel[" + EchoModel.class.getName() + ", provider=unknown," + " model=echo-1]");
    }

    @Test
    void toolsOfferedToAModelWithoutToolCallingAreRefusedWithAClearMessage() {
        SpringAiChatModel model = SpringAiChatModel.of(new EchoModel(Flux.empty()));

        assertThatThrownBy(() -> model.chat(SpringAiChatModelOpenAiTest.runWithTools()))
                .isInstanceOf(ChatModelException.class)
                .hasMessage("The Spring AI chat model EchoModel (provider unknown, model echo-1) cannot be offered"
                        + " tools: its options (org.springframework.ai.chat.prompt.DefaultChatOptions) are not"
                        + " ToolCallingChatOptions. Use a Spring AI model that supports tool calling.");
    }

    @Test
    void aModelThatCannotStreamAnswersWholeThroughCall() {
        SpringAiChatModel model = SpringAiChatModel.of(new EchoModel(null));
        List<String> deltas = new ArrayList<>();

        ChatResponse response = model.chatStreaming(HELLO, deltas::add);

        assertThat(deltas).containsExactly("Echo: Hello");
        assertThat(response).isEqualTo(new ChatResponse("Echo: Hello", List.of(), FinishReason.STOP, TokenUsage.ZERO));
    }

    @Test
    void aListenerThatThrowsStopsTheStreamAndItsExceptionPassesUnchanged() {
        AtomicBoolean cancelled = new AtomicBoolean();
        Flux<org.springframework.ai.chat.model.ChatResponse> endless =
                Flux.<org.springframework.ai.chat.model.ChatResponse>generate(
                                sink -> sink.next(EchoModel.answer("more ", null)))
                        .doOnCancel(() -> cancelled.set(true));
        SpringAiChatModel model = SpringAiChatModel.of(new EchoModel(endless));
        IllegalStateException stop = new IllegalStateException("the store failed while a step was ticked");

        assertThatThrownBy(() -> model.chatStreaming(HELLO, delta -> {
                    throw stop;
                }))
                .isSameAs(stop);
        assertThat(cancelled).isTrue();
    }

    @Test
    void aStreamThatEndsWithoutAnyResponseIsAClearError() {
        SpringAiChatModel model = SpringAiChatModel.of(new EchoModel(Flux.empty()));

        assertThatThrownBy(() -> model.chatStreaming(HELLO, delta -> {}))
                .isInstanceOf(ChatModelException.class)
                .hasMessage("The Spring AI chat model EchoModel (provider unknown, model echo-1) answered with"
                        + " something that is not a valid response: the stream ended without any response.");
    }

    @Test
    void aFailureInTheMiddleOfAStreamIsAChatModelExceptionAfterTheTextSoFar() {
        Flux<org.springframework.ai.chat.model.ChatResponse> failing = Flux.concat(
                Flux.just(EchoModel.answer("Hel", null)), Flux.error(new IllegalStateException("connection reset")));
        SpringAiChatModel model = SpringAiChatModel.of(new EchoModel(failing));
        List<String> deltas = new ArrayList<>();

        assertThatThrownBy(() -> model.chatStreaming(HELLO, deltas::add))
                .isInstanceOf(ChatModelException.class)
                .hasMessage("The Spring AI chat model EchoModel (provider unknown, model echo-1) failed: connection"
                        + " reset. Check the Spring AI ChatModel's configuration (base URL, model, key) and that its"
                        + " service is reachable.");
        assertThat(deltas).containsExactly("Hel");
    }

    @Test
    void finishReasonsOfSpringAisProvidersMapOntoTaskagents() {
        assertThat(ResponseMapping.finishReason("STOP", false)).isEqualTo(FinishReason.STOP);
        assertThat(ResponseMapping.finishReason("end_turn", false)).isEqualTo(FinishReason.STOP);
        assertThat(ResponseMapping.finishReason("TOOL_CALLS", true)).isEqualTo(FinishReason.TOOL_CALLS);
        assertThat(ResponseMapping.finishReason("tool_use", true)).isEqualTo(FinishReason.TOOL_CALLS);
        assertThat(ResponseMapping.finishReason("LENGTH", false)).isEqualTo(FinishReason.LENGTH);
        assertThat(ResponseMapping.finishReason("max_tokens", false)).isEqualTo(FinishReason.LENGTH);
        assertThat(ResponseMapping.finishReason("CONTENT_FILTER", false)).isEqualTo(FinishReason.CONTENT_FILTER);
        assertThat(ResponseMapping.finishReason("refusal", false)).isEqualTo(FinishReason.CONTENT_FILTER);
        assertThat(ResponseMapping.finishReason(null, true)).isEqualTo(FinishReason.TOOL_CALLS);
        assertThat(ResponseMapping.finishReason("", false)).isEqualTo(FinishReason.OTHER);
        assertThat(ResponseMapping.finishReason("pause_turn", false)).isEqualTo(FinishReason.OTHER);
    }

    @Test
    void secretsAreCutOutOfMessages() {
        assertThat(Failures.redact("key sk-ant-api03-abcdefgh and Bearer abc.def and api_key=xyz1234 stay out"))
                .isEqualTo("key <redacted> and <redacted> and <redacted> stay out");
    }

    /** A Spring AI model that echoes the last user message; it streams the given flux, or cannot stream. */
    private static final class EchoModel implements org.springframework.ai.chat.model.ChatModel {
        private final Flux<org.springframework.ai.chat.model.ChatResponse> stream;

        EchoModel(Flux<org.springframework.ai.chat.model.ChatResponse> stream) {
            this.stream = stream;
        }

        static org.springframework.ai.chat.model.ChatResponse answer(String text, String finishReason) {
            return new org.springframework.ai.chat.model.ChatResponse(List.of(new Generation(
                    new AssistantMessage(text),
                    ChatGenerationMetadata.builder().finishReason(finishReason).build())));
        }

        @Override
        public org.springframework.ai.chat.model.ChatResponse call(Prompt prompt) {
            return answer("Echo: " + prompt.getUserMessage().getText(), "stop");
        }

        @Override
        public Flux<org.springframework.ai.chat.model.ChatResponse> stream(Prompt prompt) {
            if (stream == null) {
                return org.springframework.ai.chat.model.ChatModel.super.stream(prompt);
            }
            return stream;
        }

        @Override
        public ChatOptions getOptions() {
            return ChatOptions.builder().model("echo-1").build();
        }
    }
}
