package relay

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"testing"
	"time"

	"gauntlet/internal/testpy"
)

// TestMain lets the test binary be a referee or a bot of the benchmarks
// (RELAY_TEST_ROLE): the cheapest processes there are, so that what a
// benchmark measures is the relay and the pipes. The tests' Python
// referees start with the interpreter itself (see testpy).
func TestMain(m *testing.M) {
	switch os.Getenv("RELAY_TEST_ROLE") {
	case "referee":
		os.Exit(echoReferee())
	case "bot":
		os.Exit(echoBot())
	}
	os.Exit(testpy.Main(m.Run))
}

// benchRounds is the rounds of a benchmark game (RELAY_TEST_ROUNDS).
const benchRounds = 2000

// echoReferee plays RELAY_TEST_ROUNDS rounds in which every player is sent
// one line and answers one, then ranks the players in seat order.
func echoReferee() int {
	rounds, err := strconv.Atoi(os.Getenv("RELAY_TEST_ROUNDS"))
	if err != nil {
		return 2
	}
	in := bufio.NewScanner(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	in.Scan() // ###Seed
	in.Scan()
	var n int
	if _, err := fmt.Sscanf(in.Text(), "###Start %d", &n); err != nil {
		return 2
	}
	for r := range rounds {
		for i := range n {
			fmt.Fprintf(out, "###Input %d\n%d\n###Output %d 1\n", i, r, i)
			out.Flush()
			if !in.Scan() {
				return 3
			}
		}
	}
	out.WriteString("###End")
	for i := range n {
		fmt.Fprintf(out, " %d", i)
	}
	out.WriteString("\n")
	out.Flush()
	return 0
}

// echoBot answers every line at once.
func echoBot() int {
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		if _, err := os.Stdout.WriteString("1\n"); err != nil {
			return 1
		}
	}
	return 0
}

// BenchmarkRelayedTurn: the relay's cost of one answer (a line to the
// player, its answer, and both relayed to and from the referee), with a
// referee and bots that answer at once: ns/answer is the relay and the two
// pipe round trips, allocs/answer gauntlet's allocations. A game of two
// players and 2,000 rounds per iteration makes the processes' start small.
func BenchmarkRelayedTurn(b *testing.B) {
	self, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	referee := []string{"env", "RELAY_TEST_ROLE=referee", "RELAY_TEST_ROUNDS=" + strconv.Itoa(benchRounds), self, "-test.run=^$"}
	bot := Player{Argv: []string{self, "-test.run=^$"}, Env: []string{"RELAY_TEST_ROLE=bot"}}
	players := []Player{bot, bot}
	lim := Limits{FirstTurn: 10 * time.Second, Turn: 10 * time.Second, Game: time.Minute}
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	answers := 0
	b.ResetTimer()
	for range b.N {
		res, err := Relayed(context.Background(), referee, 1, players, lim, nil)
		if err != nil {
			b.Fatal(err)
		}
		if res.Turns != benchRounds || res.Forfeit[0] != "" || res.Forfeit[1] != "" {
			b.Fatalf("%d turns, forfeits %q", res.Turns, res.Forfeit)
		}
		answers += len(res.Times[0]) + len(res.Times[1])
	}
	b.StopTimer()
	runtime.ReadMemStats(&ms1)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(answers), "ns/answer")
	b.ReportMetric(float64(ms1.Mallocs-ms0.Mallocs)/float64(answers), "allocs/answer")
}
