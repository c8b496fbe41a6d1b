// The cashier: money into and out of your wallet through the room's payment provider (docs/protocol.md, "Cashier").
// Amounts are typed in dollars and sent in cents; what the room refuses is shown with its rule (AC-2, AC-5).
import { cash } from "./describe.js";

const $ = (id) => document.getElementById(id);

export class CashierView {
  constructor(app) {
    this.app = app;
    $("cashier-form").addEventListener("submit", (e) => {
      e.preventDefault();
      this.ask(e.submitter && e.submitter.name === "withdraw" ? "withdraw" : "deposit");
    });
    app.room.on("cashier", (m) => this.settled(m));
  }

  show() {
    $("cashier-error").textContent = "";
    $("cashier-done").textContent = "";
    this.showBalance();
    this.app.refreshBalance().then(() => this.showBalance());
  }

  showBalance() {
    const balance = this.app.me && this.app.me.balance;
    $("cashier-balance").textContent = balance == null ? "" : cash(balance, "USD");
  }

  async ask(kind) {
    const dollars = Number($("cashier-amount").value);
    $("cashier-error").textContent = "";
    $("cashier-done").textContent = "";
    if (!(dollars > 0)) {
      $("cashier-error").textContent = "Type an amount in dollars.";
      return;
    }
    const amount = Math.round(dollars * 100);
    try {
      const answer = await this.app.room.request(kind, { amount });
      this.app.me.balance = answer.balance;
      this.app.showBalance();
      this.showBalance();
      $("cashier-done").textContent = kind === "deposit" ? `Deposited ${cash(amount, "USD")}.`
        : answer.status === "paid" ? `Withdrew ${cash(amount, "USD")}.`
          : `Your withdrawal of ${cash(amount, "USD")} is held until the payment service answers.`;
    } catch (e) {
      $("cashier-error").textContent = e.text || e.message;
    }
  }

  // A deposit or withdrawal the payment service settled later (the `cashier` push).
  settled(m) {
    if (this.app.me) {
      this.app.me.balance = m.balance;
      this.app.showBalance();
      this.showBalance();
    }
    const what = { credited: "was credited", refused: "was refused", paid: "was paid out",
      returned: "was refused: the money is back in your wallet" }[m.status] || m.status;
    this.app.toast(`Your ${m.kind} of ${cash(m.amount, "USD")} ${what}.`, m.status === "refused"
      || m.status === "returned");
  }
}
