"""The nginx site as a volunteer ends up with it (issue 35 item 8): it answers on IPv6 as on IPv4
(`listen [::]:80`), marks versioned static files `immutable`, and after certbot's TLS step and the README's
line after it, speaks HTTP/2 on port 443 (certbot's edit is made here as certbot makes it, with a throwaway
self-signed certificate; curl asks for HTTP/2)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.deploy import servers

DEPLOY, ROOT = servers.DEPLOY, servers.ROOT
pytestmark = pytest.mark.skipif(servers.NGINX is None, reason="nginx is not installed (make browser-deps)")


def curl(*args: str) -> str:
    done = subprocess.run(["curl", "-s", "-o", "/dev/null", "-D", "-", "--max-time", "10", *args],
                          capture_output=True, text=True)
    return done.stdout


def static_version(path: str) -> str:
    from tournament.web.static_files import static_version as version

    return version(str(ROOT / "static"), path)


def test_the_site_listens_on_ipv6_as_on_ipv4():
    site = (DEPLOY / "nginx-site.conf").read_text()
    assert re.search(r"listen 80 default_server;\n\s*listen \[::\]:80 default_server;", site)
    assert re.search(r"listen 80;\n\s*listen \[::\]:80;\n\s*server_name mcr-tournament.invalid;", site)


def test_versioned_static_files_are_immutable_and_reached_over_ipv6(tmp_path):
    version = static_version("css/app.css")
    with servers.nginx(servers.free_port(), tmp_path) as url:
        port = url.rsplit(":", 1)[1]
        headers = curl("-H", "Host: 127.0.0.1", f"{url}/static/css/app.css?v={version}")
        assert headers.startswith("HTTP/1.1 200"), headers
        control = ", ".join(re.findall(r"(?im)^Cache-Control: (.*?)\r?$", headers))
        assert "immutable" in control and "max-age=315360000" in control, control
        plain = curl("-H", "Host: 127.0.0.1", f"{url}/static/css/app.css")
        control = ", ".join(re.findall(r"(?im)^Cache-Control: (.*?)\r?$", plain))
        assert "immutable" not in control and "max-age=3600" in control, control
        if not servers.ipv6_loopback():
            pytest.skip("no IPv6 on this machine: the [::]:80 listen is checked in the file only")
        over_v6 = curl("-g", "-H", "Host: 127.0.0.1", f"http://[::1]:{port}/static/css/app.css?v={version}")
        assert over_v6.startswith("HTTP/1.1 200"), over_v6


def tls_port() -> int:
    """A free port whose number ends in 443, as certbot's lines end in 443 (the README's sed finds them so)."""
    for port in range(20443, 65000, 1000):
        if servers.free_port_is(port):
            return port
    pytest.skip("no free port ending in 443")


def as_certbot_leaves_it(site: str, http_port: int, port: int, cert: Path, key: Path) -> str:
    """What `certbot --nginx -d NAME --redirect` does to the site, here on loopback ports: in the server of
    that name, the port 80 listens go and the 443 ones come with the certificate; a new server takes port 80
    and redirects to HTTPS."""
    v4, v6 = f"listen 127.0.0.1:{http_port};", f"listen [::1]:{http_port};"
    named = "    server_name 127.0.0.1;\n"
    assert named in site and v4 in site
    site = site.replace(f"    {v4}\n", "", 1).replace(f"    {v6}\n", "", 1)
    ipv6 = servers.ipv6_loopback()
    tls = (f"    listen [::1]:{port} ssl ipv6only=on; # managed by Certbot\n" if ipv6 else "") + (
        f"    listen 127.0.0.1:{port} ssl; # managed by Certbot\n"
        f"    ssl_certificate {cert}; # managed by Certbot\n"
        f"    ssl_certificate_key {key}; # managed by Certbot\n")
    site = site.replace(named, named + tls, 1)
    return site + (
        "\nserver {\n    if ($host = 127.0.0.1) {\n        return 301 https://$host$request_uri;\n"
        f"    }} # managed by Certbot\n    {v4}\n" + (f"    {v6}\n" if ipv6 else "")
        + "    server_name 127.0.0.1;\n    return 404; # managed by Certbot\n}\n")


def readme_http2_step() -> str:
    readme = (DEPLOY / "README.md").read_text()
    step = readme.split("### 6. TLS with certbot", 1)[1].split("###", 1)[0]
    [command] = [line for line in step.splitlines() if line.startswith("sed -i") and "http2" in line]
    assert command.endswith(" /etc/nginx/sites-available/mcr-tournament")
    return command


@pytest.mark.skipif(shutil.which("openssl") is None or shutil.which("curl") is None, reason="openssl and curl")
def test_after_certbot_the_readme_step_serves_http2(tmp_path):
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
                    "/CN=127.0.0.1", "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    port = tls_port()
    command = readme_http2_step()

    def certbot_then_readme(site: str) -> str:
        http_port = int(re.search(r"listen 127\.0\.0\.1:(\d+) default_server;", site).group(1))
        edited = tmp_path / "mcr-tournament"
        edited.write_text(as_certbot_leaves_it(site, http_port, port, cert, key))
        subprocess.run(command.replace("/etc/nginx/sites-available/mcr-tournament", str(edited)), shell=True,
                       check=True)
        text = edited.read_text()
        assert f"listen 127.0.0.1:{port} ssl http2; # managed by Certbot" in text
        # Run twice (an admin repeating the step), it changes nothing more.
        subprocess.run(command.replace("/etc/nginx/sites-available/mcr-tournament", str(edited)), shell=True,
                       check=True)
        assert edited.read_text() == text
        return text

    with servers.nginx(servers.free_port(), tmp_path, edit=certbot_then_readme) as url:
        version = static_version("css/app.css")
        answer = curl("-k", "--http2", f"https://127.0.0.1:{port}/static/css/app.css?v={version}")
        assert answer.startswith("HTTP/2 200"), answer
        assert "immutable" in answer
        redirect = curl("-H", "Host: 127.0.0.1", f"{url}/login")
        assert redirect.startswith("HTTP/1.1 301") and "Location: https://127.0.0.1/login" in redirect, redirect
        if servers.ipv6_loopback():
            assert curl("-k", "-g", "--http2", f"https://[::1]:{port}/static/css/app.css").startswith("HTTP/2 200")
