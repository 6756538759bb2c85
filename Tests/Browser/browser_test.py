#!/usr/bin/env python3
"""The web view in a real browser: headless Chromium (Debian's chromium and
chromium-driver) driven by Selenium, on the demo diary served by
`strata serve` and on its static export opened from file://.

Usage: browser_test.py STRATA SCREENSHOTS

Checks that an entry's title is visible, its photo decoded (naturalWidth > 0),
a `<script>` title shows as text and does not run, a predicate typed in the
box filters, and links lead to a tag and back; saves screenshots in
SCREENSHOTS. Exits non-zero on the first failure, saying which.
"""

import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

os.environ.setdefault("SE_OFFLINE", "true")  # Never let Selenium fetch a driver.

from selenium import webdriver  # noqa: E402
from selenium.common.exceptions import NoAlertPresentException  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support import expected_conditions  # noqa: E402
from selenium.webdriver.support.wait import WebDriverWait  # noqa: E402

HOSTILE = "<script>alert(1)</script>"


def check(condition, what):
    if not condition:
        raise AssertionError(what)
    print(f"  ok: {what}")


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                     "--disable-gpu", "--window-size=1200,1000", "--allow-file-access-from-files"]:
        options.add_argument(argument)
    driver_path = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    return webdriver.Chrome(options=options, service=Service(executable_path=driver_path))


def no_alert(driver):
    try:
        driver.switch_to.alert
        return False
    except NoAlertPresentException:
        return True


def click(driver, text):
    driver.find_element(By.LINK_TEXT, text).click()


def walk(driver, start, shots, prefix, served):
    """The same walk on the served site and on the static one."""
    driver.get(start)
    check("Diary" in driver.find_element(By.TAG_NAME, "h1").text, f"{prefix}: the model page opens")
    driver.save_screenshot(str(shots / f"{prefix}-model.png"))
    click(driver, "DiaryEntry")
    check(driver.find_element(By.TAG_NAME, "h1").text == "DiaryEntry", f"{prefix}: the entity page opens")
    rows = driver.find_elements(By.CSS_SELECTOR, "table.objects tr")
    check(len(rows) == 6, f"{prefix}: five entries are listed")
    check(HOSTILE in driver.find_element(By.TAG_NAME, "table").text,
          f"{prefix}: the <script> title shows as text in the table")
    check(no_alert(driver), f"{prefix}: the <script> title did not run")
    driver.save_screenshot(str(shots / f"{prefix}-entries.png"))
    # The first entry: its title and its photo.
    click(driver, "1")
    heading = driver.find_element(By.TAG_NAME, "h1").text
    check(heading == "DiaryEntry 1: Paris", f"{prefix}: the entry's title is visible ({heading})")
    check(driver.find_element(By.TAG_NAME, "h1").is_displayed(), f"{prefix}: the title is displayed")
    # Its photo, on its own page, and on the medium's.
    for selector, where in [("img.thumb", "the entry's page"), ("img.media", "the medium's page")]:
        if selector == "img.media":
            click(driver, "Medium 1")
        image = driver.find_element(By.CSS_SELECTOR, selector)
        width = driver.execute_script("return arguments[0].complete && arguments[0].naturalWidth", image)
        check(isinstance(width, int) and width > 0,
              f"{prefix}: the photo is decoded on {where} (naturalWidth {width})")
        driver.save_screenshot(str(shots / f"{prefix}-photo-{selector.split('.')[1]}.png"))
    driver.back()
    # To a tag and back by links.
    click(driver, "Tag 2: paris")
    check(driver.find_element(By.TAG_NAME, "h1").text == "Tag 2: paris", f"{prefix}: a link reaches the tag")
    driver.save_screenshot(str(shots / f"{prefix}-tag.png"))
    click(driver, "DiaryEntry 1: Paris")
    check(driver.find_element(By.TAG_NAME, "h1").text == "DiaryEntry 1: Paris",
          f"{prefix}: a link leads back to the entry")
    # The hostile entry's own page.
    click(driver, "DiaryEntry")
    click(driver, "5")
    check(driver.find_element(By.TAG_NAME, "h1").text == f"DiaryEntry 5: {HOSTILE}",
          f"{prefix}: the <script> title is the heading's text")
    check(no_alert(driver), f"{prefix}: no script ran on the hostile entry's page")
    check(driver.execute_script("return document.querySelectorAll('main script').length") == 0,
          f"{prefix}: the page holds no script element")
    if served:
        click(driver, "DiaryEntry")
        box = driver.find_element(By.NAME, "where")
        box.send_keys("title CONTAINS[cd] 'PARIS'")
        box.submit()
        # submit() returns before the new page loads (a click waits, a script-run submit does
        # not): read the rows once the old page's box is gone.
        WebDriverWait(driver, 30).until(expected_conditions.staleness_of(box))
        WebDriverWait(driver, 30).until(
            lambda d: d.execute_script("return document.readyState") == "complete")
        rows = driver.find_elements(By.CSS_SELECTOR, "table.objects tr")
        check(len(rows) == 3, f"{prefix}: the predicate box filters to the two Paris entries")
        driver.save_screenshot(str(shots / f"{prefix}-filtered.png"))


def main():
    strata, shots = pathlib.Path(sys.argv[1]).resolve(), pathlib.Path(sys.argv[2]).resolve()
    shots.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="strata-browser-") as folder:
        folder = pathlib.Path(folder)
        subprocess.run([str(strata), "demo", str(folder / "demo")], check=True,
                       stdout=subprocess.DEVNULL)
        store = folder / "Diary.sqlite"
        shutil.copy(folder / "demo" / "Diary-restored.sqlite", store)
        hostile = folder / "hostile.json"
        hostile.write_text(json.dumps([{"title": HOSTILE, "body": "<img src=x onerror=alert(2)>",
                                        "creationTime": "2026-06-06T12:00:00Z"}]))
        subprocess.run([str(strata), "import", str(store), str(hostile), "--entity", "DiaryEntry"],
                       check=True, stdout=subprocess.DEVNULL)
        site = folder / "site"
        subprocess.run([str(strata), "export", str(store), "--format", "html", "-o", str(site)],
                       check=True, stdout=subprocess.DEVNULL)
        server = subprocess.Popen([str(strata), "serve", str(store), "--port", "0"],
                                  stdout=subprocess.PIPE, text=True)
        try:
            line = server.stdout.readline()
            address = line.split(" at ")[-1].strip()
            check(address.startswith("http://127.0.0.1:"), f"strata serve listens ({address})")
            driver = browser()
            try:
                print("served pages:")
                walk(driver, address, shots, "served", served=True)
                print("static export from file://:")
                walk(driver, (site / "index.html").as_uri(), shots, "static", served=False)
            finally:
                driver.quit()
        finally:
            server.terminate()
            server.wait()
    print(f"browser test passed; screenshots in {shots}")


if __name__ == "__main__":
    try:
        main()
    except AssertionError as failure:
        print(f"browser test FAILED: {failure}", file=sys.stderr)
        sys.exit(1)
