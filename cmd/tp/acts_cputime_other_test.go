//go:build !unix

package main

import "testing"

type cpuClock struct{}

func (c *cpuClock) start()            {}
func (c *cpuClock) stop()             {}
func (c *cpuClock) report(*testing.B) {}
