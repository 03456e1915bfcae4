// SPDX-License-Identifier: GPL-2.0-only
// node browser-page.js URL SHOT.png TEXT: open URL in Debian's chromium
// (driven by playwright-core), wait until the page shows TEXT, keep a
// screenshot, print the page's DOM.
const { chromium } = require('playwright-core');

(async () => {
	const [url, shot, text] = process.argv.slice(2);
	const browser = await chromium.launch({
		executablePath: '/usr/bin/chromium',
		args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'],
	});
	const page = await browser.newPage({ viewport: { width: 1200, height: 700 } });
	await page.goto(url);
	await page.waitForSelector(`text=${text}`, { timeout: 60000 });
	await page.screenshot({ path: shot });
	console.log(await page.content());
	await browser.close();
})().catch((e) => {
	console.error(e.message);
	process.exit(1);
});
