package judge

import ()

// checkOf finds one check of a report.
func checkOf(r *Report, id string) Finding {
	for _, c := range r.Checks {
		if c.ID == id {
			return c
		}
	}
	return Finding{}
}

func failing(r *Report) []string {
	var out []string
	for _, c := range r.Checks {
		if !c.Pass {
			out = append(out, c.ID)
		}
	}
	return out
}
