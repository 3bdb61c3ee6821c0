package web_test

import (
	"encoding/json"
	"net/http"
)

// get GETs an API path with the token and decodes the JSON answer.
func (c *console) get(path string) (int, map[string]any) {
	c.t.Helper()
	req, _ := http.NewRequest("GET", c.base+path, nil)
	req.Header.Set("api_access_token", c.token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer res.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(res.Body).Decode(&out)
	return res.StatusCode, out
}

func (c *console) mustGet(path string) map[string]any {
	c.t.Helper()
	st, out := c.get(path)
	if st != http.StatusOK {
		c.t.Fatalf("GET %s: %d %v", path, st, out)
	}
	return out
}

// mustGetList GETs an API path that answers a JSON array.
func (c *console) mustGetList(path string) []map[string]any {
	c.t.Helper()
	req, _ := http.NewRequest("GET", c.base+path, nil)
	req.Header.Set("api_access_token", c.token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer res.Body.Close()
	var out []map[string]any
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil || res.StatusCode != http.StatusOK {
		c.t.Fatalf("GET %s: %d %v", path, res.StatusCode, err)
	}
	return out
}
