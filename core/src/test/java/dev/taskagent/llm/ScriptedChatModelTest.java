package dev.taskagent.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ScriptedChatModelTest {

    @Test
    void repliesWithTheScriptInOrderAndRecordsEveryRequest() {
        ChatResponse first = ScriptedChatModel.toolCalls(ScriptedChatModel.call("insert_task", "{\"x\":1}"));
        ChatResponse second = ScriptedChatModel.text("done");
        ScriptedChatModel model =
                ScriptedChatModel.builder().respond(first).respond(second).build();

        ChatResponse firstAnswer = model.chat(request("one"));
        ChatResponse secondAnswer = model.chat(request("two"));

        assertThat(firstAnswer).isSameAs(first);
        assertThat(secondAnswer).isSameAs(second);
        assertThat(model.requests()).containsExactly(request("one"), request("two"));
        assertThat(model.requestCount()).isEqualTo(2);
        assertThat(model.remaining()).isZero();
    }

    @Test
    void respondWithComputesTheAnswerFromTheRequest() {
        ScriptedChatModel model = ScriptedChatModel.builder()
                .respondWith(request -> ScriptedChatModel.text(
                        "you said: " + ((UserMessage) request.messages().get(0)).text()))
                .build();

        assertThat(model.chat(request("hello")).text()).isEqualTo("you said: hello");
    }

    @Test
    void failureStepThrowsItsExceptionAndTheScriptGoesOn() {
        ChatModelException failure = new ChatModelException("rate limited");
        ScriptedChatModel model = ScriptedChatModel.builder()
                .fail(failure)
                .respond(ScriptedChatModel.text("after the failure"))
                .build();

        assertThatThrownBy(() -> model.chat(request("one"))).isSameAs(failure);
        assertThat(model.chat(request("two")).text()).isEqualTo("after the failure");
        assertThat(model.requestCount()).isEqualTo(2);
    }

    @Test
    void exhaustedScriptThrowsAndSaysWhatToDo() {
        ScriptedChatModel model = ScriptedChatModel.builder()
                .respond(ScriptedChatModel.text("only answer"))
                .build();
        model.chat(request("one"));

        assertThatThrownBy(() -> model.chat(request("two")))
                .isInstanceOf(ChatModelException.class)
                .hasMessage(
                        "ScriptedChatModel: the script is exhausted after 2 requests; add more responses to the script");
        assertThat(model.requests()).hasSize(2);
    }

    @Test
    void exhaustedScriptThatStopsAnswersWithNothing() {
        ScriptedChatModel model = ScriptedChatModel.builder().thenStop().build();

        ChatResponse response = model.chat(request("anything"));

        assertThat(response.text()).isEmpty();
        assertThat(response.toolCalls()).isEmpty();
        assertThat(response.finishReason()).isEqualTo(FinishReason.STOP);
        assertThat(response.usage()).isEqualTo(TokenUsage.ZERO);
    }

    @Test
    void helpersBuildToolCallAndTextResponses() {
        ToolCall first = ScriptedChatModel.call("finish", "{}");
        ToolCall second = ScriptedChatModel.call("finish", "{}");

        ChatResponse calls = ScriptedChatModel.toolCalls(first, second);
        ChatResponse text = ScriptedChatModel.text("hi");

        assertThat(first.id()).isNotEqualTo(second.id());
        assertThat(calls.toolCalls()).containsExactly(first, second);
        assertThat(calls.text()).isEmpty();
        assertThat(calls.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
        assertThat(text.text()).isEqualTo("hi");
        assertThat(text.toolCalls()).isEmpty();
        assertThat(text.finishReason()).isEqualTo(FinishReason.STOP);
    }

    @Test
    void streamingHandsOutTheTextInChunksOfTheConfiguredSize() {
        String text = "✓ STEP 1: booked the venue\n✓ STEP 2: sent the invitations\n";
        ScriptedChatModel model = ScriptedChatModel.builder()
                .streamChunkSize(5)
                .respond(ScriptedChatModel.text(text))
                .build();
        List<String> chunks = new ArrayList<>();

        ChatResponse response = model.chatStreaming(request("go"), chunks::add);

        assertThat(String.join("", chunks)).isEqualTo(text);
        assertThat(chunks).hasSize((text.length() + 4) / 5);
        assertThat(chunks.subList(0, chunks.size() - 1))
                .allSatisfy(chunk -> assertThat(chunk).hasSize(5));
        assertThat(response.text()).isEqualTo(text);
    }

    @Test
    void streamingNeverSplitsASurrogatePair() {
        String text = "a😀b🚀🚀c👩‍💻d 🇩🇪 e";
        for (int size = 1; size <= 8; size++) {
            ScriptedChatModel model = ScriptedChatModel.builder()
                    .streamChunkSize(size)
                    .respond(ScriptedChatModel.text(text))
                    .build();
            List<String> chunks = new ArrayList<>();
            int limit = size + 1;

            model.chatStreaming(request("go"), chunks::add);

            assertThat(String.join("", chunks)).isEqualTo(text);
            assertThat(chunks).as("chunks of size %d", size).allSatisfy(chunk -> {
                assertThat(Character.isLowSurrogate(chunk.charAt(0))).isFalse();
                assertThat(Character.isHighSurrogate(chunk.charAt(chunk.length() - 1)))
                        .isFalse();
                assertThat(chunk.length()).isLessThanOrEqualTo(limit);
            });
        }
    }

    @Test
    void streamingAnAnswerWithoutTextHandsOutNothing() {
        ScriptedChatModel model = ScriptedChatModel.builder()
                .respond(ScriptedChatModel.toolCalls(ScriptedChatModel.call("finish", "{}")))
                .build();
        List<String> chunks = new ArrayList<>();

        ChatResponse response = model.chatStreaming(request("go"), chunks::add);

        assertThat(chunks).isEmpty();
        assertThat(response.toolCalls()).hasSize(1);
    }

    @Test
    void chunkSizeMustBePositive() {
        assertThatThrownBy(() -> ScriptedChatModel.builder().streamChunkSize(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("streamChunkSize must be positive, was 0");
    }

    @Test
    void concurrentCallsTakeDistinctSteps() throws Exception {
        int threads = 8;
        int callsPerThread = 25;
        ScriptedChatModel.Builder builder = ScriptedChatModel.builder();
        IntStream.range(0, threads * callsPerThread)
                .forEach(step -> builder.respond(ScriptedChatModel.text("step " + step)));
        ScriptedChatModel model = builder.build();

        CyclicBarrier start = new CyclicBarrier(threads);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<List<String>>> futures = new ArrayList<>();
        for (int thread = 0; thread < threads; thread++) {
            String name = "thread " + thread;
            futures.add(pool.submit(() -> {
                start.await(60, TimeUnit.SECONDS);
                List<String> mine = new ArrayList<>();
                for (int call = 0; call < callsPerThread; call++) {
                    mine.add(model.chat(request(name)).text());
                }
                return mine;
            }));
        }
        List<List<String>> answers = new ArrayList<>();
        for (Future<List<String>> future : futures) {
            answers.add(future.get(60, TimeUnit.SECONDS));
        }
        pool.shutdownNow();

        assertThat(answers.stream().flatMap(List::stream))
                .containsExactlyInAnyOrderElementsOf(IntStream.range(0, threads * callsPerThread)
                        .mapToObj(step -> "step " + step)
                        .toList());
        assertThat(model.requestCount()).isEqualTo(threads * callsPerThread);
    }

    private static ChatRequest request(String text) {
        return ChatRequest.of("system", List.of(new UserMessage(text)), List.of());
    }
}
