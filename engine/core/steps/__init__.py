"""The steps the titles share: the stock round's, the operating round's, and the interrupting
steps that may hold any round."""
