package outbound

import (
	"net/netip"
	"testing"
)

func TestForbiddenRanges(t *testing.T) {
	refused := []string{
		// IPv4 special-purpose ranges, at their edges and inside.
		"0.0.0.0", "0.255.255.255", "10.0.0.1", "10.255.255.255",
		"100.64.0.0", "100.100.100.200", "100.127.255.255",
		"127.0.0.1", "127.255.255.254", "169.254.0.1", "169.254.169.254",
		"172.16.0.1", "172.31.255.255", "192.0.0.1", "192.0.0.170", "192.0.2.1",
		"192.31.196.1", "192.52.193.1", "192.88.99.1", "192.168.0.1", "192.168.255.255",
		"192.175.48.1", "198.18.0.1", "198.19.255.255", "198.51.100.7", "203.0.113.9",
		"224.0.0.1", "239.255.255.250", "240.0.0.1", "255.255.255.254", "255.255.255.255",
		// IPv6 special-purpose ranges.
		"::", "::1", "::127.0.0.1", "::ffff:0:a00:1",
		"64:ff9b:1::1", "64:ff9b:1:ffff::8.8.8.8",
		"100::1", "100::ffff:ffff:ffff:ffff", "100:0:0:1::1",
		"2001::1", "2001:0:4136:e378:8000:63bf:3fff:fdd2", "2001:2::1", "2001:20::1", "2001:1ff:ffff::1",
		"2001:db8::1", "2001:db8:ffff::1", "2002::1", "2002:c000:0204::1", "2002:0808:0808::1",
		"2620:4f:8000::1", "3fff::1", "5f00::1",
		"fc00::1", "fd12:3456:789a::1", "fe80::1", "fe80::1%eth0", "febf::1", "fec0::1",
		"ff02::1", "ff05::1:3", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
		// IPv4 embedded in IPv6: decided by the IPv4 address.
		"::ffff:127.0.0.1", "::ffff:10.0.0.1", "::ffff:169.254.169.254", "::ffff:100.64.0.1", "::ffff:0.0.0.0",
		"64:ff9b::127.0.0.1", "64:ff9b::10.1.2.3", "64:ff9b::a9fe:a9fe", "64:ff9b::192.168.1.1",
	}
	allowed := []string{
		"1.1.1.1", "8.8.8.8", "9.255.255.255", "11.0.0.0", "93.184.216.34",
		"100.63.255.255", "100.128.0.0", "126.255.255.255", "128.0.0.1", "169.253.255.255", "169.255.0.0",
		"172.15.255.255", "172.32.0.0", "191.255.255.255", "192.0.1.1", "192.0.3.1", "192.88.98.1",
		"192.167.255.255", "192.169.0.0", "198.17.255.255", "198.20.0.0", "198.51.99.1", "203.0.112.1",
		"223.255.255.255",
		"2001:4860:4860::8888", "2606:4700:4700::1111", "2a00:1450:4001:81b::200e", "2001:200::1",
		"2003::1", "2620:4f:8001::1", "fbff::1", "2400:cb00::1",
		"::ffff:8.8.8.8", "64:ff9b::8.8.8.8", "64:ff9b::5db8:d822",
	}
	for _, s := range refused {
		ip := netip.MustParseAddr(s)
		if name, ok := Range(ip); !ok {
			t.Errorf("%s is allowed, want it refused", s)
		} else if name == "" {
			t.Errorf("%s is refused without naming its range", s)
		}
	}
	for _, s := range allowed {
		if name, ok := Range(netip.MustParseAddr(s)); ok {
			t.Errorf("%s is refused as %q, want it allowed", s, name)
		}
	}
	if !Forbidden(netip.Addr{}) {
		t.Error("the zero address is allowed")
	}
}

// Every prefix of the table is refused at its first and last address.
func TestForbiddenRangeEdges(t *testing.T) {
	for _, r := range specialPurpose {
		first := r.prefix.Masked().Addr()
		last := lastAddr(r.prefix)
		for _, ip := range []netip.Addr{first, last} {
			if !Forbidden(ip) {
				t.Errorf("%s (%s, %s) is allowed", ip, r.prefix, r.name)
			}
		}
		if next := last.Next(); next.IsValid() && !Forbidden(next) && r.prefix.Contains(next) {
			t.Errorf("%s: edge computation is wrong", r.prefix)
		}
	}
}

func lastAddr(p netip.Prefix) netip.Addr {
	b := p.Masked().Addr().AsSlice()
	for i := p.Bits(); i < len(b)*8; i++ {
		b[i/8] |= 1 << (7 - i%8)
	}
	ip, _ := netip.AddrFromSlice(b)
	return ip
}
