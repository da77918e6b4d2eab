/** Records small past-tense facts while an aggregate changes; the service pulls them after. */
export abstract class AggregateRoot<E> {
  private pending: E[] = [];
  protected record(event: E): void {
    this.pending.push(event);
  }
  pullEvents(): E[] {
    const out = this.pending;
    this.pending = [];
    return out;
  }
}
