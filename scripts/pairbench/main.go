//go:build unix

// Command pairbench runs two commands in turn — A B A B … — and prints each
// one's wall time, CPU time (user + system), peak resident memory and minor
// page faults, and the A/B ratios taken pair by pair, as min, median and max.
// Pairing keeps a ratio meaningful when a shared machine's speed drifts
// during the run; quote the median ratio and the load line it prints.
//
//	go run ./scripts/pairbench -n 30 -- tp --version ::: ./hello
//
// Each side is one command and its arguments, run without a shell (write
// sh -c '…' for a pipe); its output is thrown away and its exit status is
// printed if it is not 0. -c N runs each side N times in a row per sample
// and divides, for commands too quick for one run to be timed well. Linux
// only: peak memory and page faults come from the kernel's rusage of the
// finished child.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"time"
)

type sample struct{ wall, cpu, peakMiB, faults float64 }

func main() {
	n := flag.Int("n", 20, "pairs counted")
	warm := flag.Int("warmup", 2, "pairs run first and not counted")
	per := flag.Int("c", 1, "runs of each command per sample (times are divided by it)")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: pairbench [-n PAIRS] [-warmup N] [-c RUNS] -- A [ARG…] ::: B [ARG…]")
		flag.PrintDefaults()
	}
	flag.Parse()
	args := flag.Args()
	i := slices.Index(args, ":::")
	if i < 1 || i == len(args)-1 || *n < 1 || *per < 1 {
		flag.Usage()
		os.Exit(2)
	}
	a, b := args[:i], args[i+1:]
	fmt.Printf("A = %s\nB = %s\nload: %s\n", strings.Join(a, " "), strings.Join(b, " "), load())
	var as, bs []sample
	for k := 0; k < *warm+*n; k++ {
		sa, sb := measure(a, *per), measure(b, *per)
		if k >= *warm {
			as, bs = append(as, sa), append(bs, sb)
		}
	}
	row := func(name string, xs []sample, f func(sample) float64, unit string, scale float64) {
		v := make([]float64, len(xs))
		for i, x := range xs {
			v[i] = f(x) * scale
		}
		lo, med, hi := stats(v)
		fmt.Printf("%-14s %10.3f %10.3f %10.3f %s\n", name, lo, med, hi, unit)
	}
	fmt.Printf("%-14s %10s %10s %10s   (%d pairs, %d run(s) per sample)\n", "", "min", "median", "max", *n, *per)
	for _, side := range []struct {
		name string
		xs   []sample
	}{{"A", as}, {"B", bs}} {
		row(side.name+" wall", side.xs, func(s sample) float64 { return s.wall }, "ms", 1000)
		row(side.name+" cpu", side.xs, func(s sample) float64 { return s.cpu }, "ms", 1000)
		row(side.name+" peak", side.xs, func(s sample) float64 { return s.peakMiB }, "MiB", 1)
		row(side.name+" faults", side.xs, func(s sample) float64 { return s.faults }, "minor", 1)
	}
	ratio := func(name string, f func(sample) float64) {
		v := make([]float64, 0, len(as))
		for i := range as {
			if d := f(bs[i]); d > 0 {
				v = append(v, f(as[i])/d)
			}
		}
		if len(v) == 0 {
			fmt.Printf("%-14s n/a (B measured 0)\n", name)
			return
		}
		lo, med, hi := stats(v)
		fmt.Printf("%-14s %10.3f %10.3f %10.3f\n", name, lo, med, hi)
	}
	ratio("A/B wall", func(s sample) float64 { return s.wall })
	ratio("A/B cpu", func(s sample) float64 { return s.cpu })
	ratio("A/B peak", func(s sample) float64 { return s.peakMiB })
	ratio("A/B faults", func(s sample) float64 { return s.faults })
}

// measure runs cmd per times and returns the mean per run; peak memory is
// the largest of them.
func measure(cmd []string, per int) sample {
	var s sample
	for range per {
		c := exec.Command(cmd[0], cmd[1:]...)
		start := time.Now()
		err := c.Run()
		wall := time.Since(start)
		if c.ProcessState == nil {
			fmt.Fprintf(os.Stderr, "pairbench: %s: %v\n", cmd[0], err)
			os.Exit(1)
		}
		if code := c.ProcessState.ExitCode(); code != 0 {
			fmt.Fprintf(os.Stderr, "pairbench: %s exited %d\n", strings.Join(cmd, " "), code)
		}
		ru := c.ProcessState.SysUsage().(*syscall.Rusage)
		s.wall += wall.Seconds()
		s.cpu += (c.ProcessState.UserTime() + c.ProcessState.SystemTime()).Seconds()
		s.faults += float64(ru.Minflt)
		s.peakMiB = max(s.peakMiB, float64(ru.Maxrss)/1024) // KiB on Linux
	}
	d := float64(per)
	return sample{s.wall / d, s.cpu / d, s.peakMiB, s.faults / d}
}

func stats(v []float64) (lo, med, hi float64) {
	v = slices.Clone(v)
	slices.Sort(v)
	m := v[len(v)/2]
	if len(v)%2 == 0 {
		m = (v[len(v)/2-1] + v[len(v)/2]) / 2
	}
	return v[0], m, v[len(v)-1]
}

func load() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ") + " (1, 5, 15 min)"
}
